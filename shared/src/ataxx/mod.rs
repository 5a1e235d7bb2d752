//! Ataxx (同化棋) on Botzone's 7x7 board.

mod bitboard;
mod board;
pub mod eval;
mod io;
pub mod net;
pub mod notation;

pub use bitboard::{Bitboard, Square};
pub use board::{Board, Move, Position, MOVE_CAP};
