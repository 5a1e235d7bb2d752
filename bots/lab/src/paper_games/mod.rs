//! The test games of seed 000's Section 4, as the GGP platform has them, for the
//! experiments only (no bot plays them): Tic-Tac-Toe (Large) on 5x5 and Connect 5 on 8x8
//! ([`in_a_row`]), Breakthrough on 6x6 ([`breakthrough`]), Connect 4 on 6x7
//! ([`connect4`]).

pub mod breakthrough;
pub mod connect4;
pub mod in_a_row;
pub mod mmcts_grid;
