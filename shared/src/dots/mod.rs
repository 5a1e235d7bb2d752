//! Dots-and-Boxes as Botzone's "Pencil" (点格棋): 6x6 dots, 5x5 boxes, 60 edges.

mod board;
mod chains;
pub mod eval;
mod graph;
pub mod io;
pub mod symmetry;

pub use board::{Edge, Position, SideCounts, BOXES, EDGES};
pub use chains::{edges_in, loony_value, Capture, Component};
