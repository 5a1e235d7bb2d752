//! Rules of Ataxx, NoGo and Dots-and-Boxes exactly as Botzone's judges apply them,
//! the Botzone input/output protocol, and the search engines our bots share.
//!
//! Dependencies point one way: `bot` -> `search` -> `game` <- each game's rules.
//! The rules modules (`ataxx`, `nogo`, `dots`) never import `search`.

pub mod ataxx;
pub mod bot;
pub mod botzone;
pub mod dots;
pub mod engines;
pub mod game;
pub mod nogo;
pub mod search;
