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

impl GameName {
    pub const ALL: [GameName; 3] = [GameName::Ataxx, GameName::Nogo, GameName::Dots];

    /// The name the tools and the logs use (`game_type`).
    pub fn name(self) -> &'static str {
        match self {
            GameName::Ataxx => "ataxx",
            GameName::Nogo => "nogo",
            GameName::Dots => "dots",
        }
    }

    /// The game named `name` as [`GameName::name`] writes it.
    pub fn from_name(name: &str) -> Option<GameName> {
        GameName::ALL.into_iter().find(|g| g.name() == name)
    }
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

/// The protocols of foreign engines the arena drives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineProtocol {
    /// The Universal Ataxx Interface (UCI's form for Ataxx).
    Uai,
    /// The Go Text Protocol.
    Gtp,
}

/// A game the arena can judge and open.
pub trait ArenaGame: BotzoneGame {
    /// The game's name on Botzone (for `runmatch`).
    const BOTZONE_NAME: &'static str;

    /// The protocol of this game's foreign engines, if the arena can drive any.
    const ENGINE_PROTOCOL: Option<EngineProtocol> = None;

    /// Whether a random opening may play `mv` here.
    fn fits_random_opening(&self, _mv: Self::Move) -> bool {
        true
    }

    /// The places still open to play: empty squares (Ataxx), empty points (NoGo),
    /// undrawn edges (Pencil). `arena book` cuts logged games by it.
    fn places_left(&self) -> u32;

    /// `mv` in the engine protocol's notation. (A game without a protocol never gets here:
    /// `CompetitorSpec::check` refuses its engines before a match.)
    fn engine_move_text(mv: Self::Move) -> String {
        format!("{mv:?}")
    }

    /// An engine's answer read as a move here: `None` for a pass (or a resignation),
    /// which Botzone's rules reject.
    fn parse_engine_move(&self, text: &str) -> Result<Option<Self::Move>, String> {
        Err(format!("{text:?}: {} has no engine protocol", Self::NAME))
    }
}

impl ArenaGame for ataxx::Position {
    const BOTZONE_NAME: &'static str = "Ataxx";
    const ENGINE_PROTOCOL: Option<EngineProtocol> = Some(EngineProtocol::Uai);

    fn places_left(&self) -> u32 {
        self.empty().count()
    }

    fn engine_move_text(mv: ataxx::Move) -> String {
        ataxx::notation::move_text(mv)
    }

    fn parse_engine_move(&self, text: &str) -> Result<Option<ataxx::Move>, String> {
        match text {
            "0000" | "none" | "pass" => Ok(None),
            _ => ataxx::notation::parse_move(self, text).map(Some),
        }
    }
}

impl ArenaGame for nogo::Position {
    const BOTZONE_NAME: &'static str = "NoGo";
    const ENGINE_PROTOCOL: Option<EngineProtocol> = Some(EngineProtocol::Gtp);

    fn places_left(&self) -> u32 {
        self.empty().count()
    }

    fn engine_move_text(p: nogo::Point) -> String {
        nogo::notation::vertex(p)
    }

    fn parse_engine_move(&self, text: &str) -> Result<Option<nogo::Point>, String> {
        match text.to_ascii_lowercase().as_str() {
            "pass" | "resign" => Ok(None),
            _ => nogo::notation::parse_vertex(text).map(Some),
        }
    }

    /// Not black's first move at the centre: our bot never plays it (a course rule), so
    /// an opening with it would not be one the bot could have chosen.
    fn fits_random_opening(&self, p: nogo::Point) -> bool {
        !never_open_at_centre(self, p)
    }
}

impl ArenaGame for dots::Position {
    const BOTZONE_NAME: &'static str = "Pencil";

    fn places_left(&self) -> u32 {
        60 - self.drawn_count()
    }

    /// Only edges that complete no box: an opening that hands out boxes decides too much.
    fn fits_random_opening(&self, e: dots::Edge) -> bool {
        self.boxes_completed_by(e) == 0
    }
}
