//! The front end's integration tests, in one test binary: one turn through
//! `frontend::run`, and robustness against random and mutated inputs.

mod bot;
mod robustness;
