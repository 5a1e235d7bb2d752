//! NoGo (不围棋) on a 9x9 board: capturing and suicide are both illegal, and the side
//! left without a legal move loses.

mod bitboard;
mod board;
pub mod eval;
pub mod groups;
mod io;
pub mod notation;
pub mod patterns;

pub use bitboard::{Bitboard, Point};
pub use board::{Position, CENTRE};
pub use groups::GroupBoard;
