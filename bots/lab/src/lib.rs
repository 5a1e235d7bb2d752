//! The research lab: experiments that test the seeds' claims and measure the bots, the
//! seeds' own test games, the figures and the bench. It runs engines in-process or
//! through the judge (`arena`); nothing here is needed to play a game.
//!
//! One module per experiment (the `experiments` binary's subcommands): [`mmcts`] (seed
//! 000), [`parallel`] (seed 001), [`texel`] (Ataxx's fitted evaluation), [`spsa`] (Ataxx's
//! search numbers tuned), [`overrun`] (time safety), [`dots_solver`] and [`nogo_solver`]
//! (the endgame solvers on logged games), [`dots_value`] (a learned Pencil value beside the
//! playouts), [`nogo_regions`] (how far NoGo positions split into
//! independent regions), [`nogo_value`] (a learned NoGo value fitted to
//! logged games' winners), [`figures`] (every SVG in docs/figures from its CSV), and [`standings`] (docs/strength.md
//! and the README's standings from the match log, [`elo_log`]).

pub mod dots_solver;
pub mod dots_value;
pub mod elo_log;
pub mod figures;
pub mod in_process;
pub mod logged;
pub mod mmcts;
pub mod nogo_regions;
pub mod nogo_solver;
pub mod nogo_value;
pub mod overrun;
pub mod paper_games;
pub mod parallel;
pub mod spsa;
pub mod standings;
pub mod texel;
