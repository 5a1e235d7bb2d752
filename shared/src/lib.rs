//! Rules of Ataxx, NoGo and Dots-and-Boxes exactly as Botzone's judges apply them,
//! the Botzone protocol, and the search engines our bots share.
//!
//! Dependencies point one way: `engines` -> `search` -> `game` <- each game's rules
//! (`ataxx`, `nogo`, `dots`, which never import `search`); `botzone` speaks the protocol
//! over each game's [`game::Rules`]; `selfplay` runs the data tools' numbered games in
//! order and in shards. The command line lives in the bots' `frontend` crate, not here.

pub mod ataxx;
pub mod botzone;
pub mod dots;
pub mod engines;
pub mod game;
pub mod nogo;
pub mod search;
pub mod selfplay;
