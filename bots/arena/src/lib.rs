//! Tools that run bots: the arena judge (matches, replays, human play) and the Botzone
//! local-AI connector share this library.

pub mod book;
pub mod competitor;
pub mod figures;
pub mod games;
pub mod human;
pub mod in_process;
pub mod journal;
pub mod judge;
pub mod paper_games;
pub mod parallel_match;
pub mod replay;
pub mod runner;
pub mod stats;
pub mod tournament;
