//! The judge: Botzone's rules applied between any two bots (a Botzone program, or a
//! `uai:`/`gtp:` engine), with time limits; matches with Elo and SPRT, opening books,
//! logged matches summed up and compared (`results`), replays of logged games and human
//! play, in the terminal or on a local web page (`web`). The connector (`bots/connect`)
//! asks the bot its turns through [`judge::ask_move`]; the lab (`bots/lab`) builds on the
//! matches.

pub mod book;
pub mod competitor;
pub mod games;
pub mod human;
pub mod judge;
pub mod live;
pub mod replay;
pub mod results;
pub mod runner;
pub mod stats;
pub mod tournament;
pub mod web;
