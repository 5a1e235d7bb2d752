//! The three games as the tools name them, and what the arena needs of a game beyond its
//! protocol: Botzone's name for it and which moves a random opening may use.

use botzone_games::botzone::BotzoneGame;
use botzone_games::engines::nogo::never_open_at_centre;
use botzone_games::{ataxx, dots, nogo};
use clap::ValueEnum;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GameName {
    Ataxx,
    Nogo,
    Dots,
}

/// Runs `$body` with the type alias `$G` set to the named game's position type, e.g.
/// `with_game!(name, G => run::<G>(args))`.
#[macro_export]
macro_rules! with_game {
    ($name:expr, $G:ident => $body:expr) => {
        match $name {
            $crate::games::GameName::Ataxx => {
                type $G = botzone_games::ataxx::Position;
                $body
            }
            $crate::games::GameName::Nogo => {
                type $G = botzone_games::nogo::Position;
                $body
            }
            $crate::games::GameName::Dots => {
                type $G = botzone_games::dots::Position;
                $body
            }
        }
    };
}

/// A game the arena can judge and open.
pub trait ArenaGame: BotzoneGame {
    /// The game's name on Botzone (for `runmatch`).
    const BOTZONE_NAME: &'static str;

    /// Whether a random opening may play `mv` here.
    fn fits_random_opening(&self, _mv: Self::Move) -> bool {
        true
    }
}

impl ArenaGame for ataxx::Position {
    const BOTZONE_NAME: &'static str = "Ataxx";
}

impl ArenaGame for nogo::Position {
    const BOTZONE_NAME: &'static str = "NoGo";

    /// Not black's first move at the centre: our bot never plays it (a course rule), so
    /// an opening with it would not be one the bot could have chosen.
    fn fits_random_opening(&self, p: nogo::Point) -> bool {
        !never_open_at_centre(self, p)
    }
}

impl ArenaGame for dots::Position {
    const BOTZONE_NAME: &'static str = "Pencil";

    /// Only edges that complete no box: an opening that hands out boxes decides too much.
    fn fits_random_opening(&self, e: dots::Edge) -> bool {
        self.boxes_completed_by(e) == 0
    }
}
