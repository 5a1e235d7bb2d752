//! The small interface that search code uses without knowing the game.

use std::fmt::{self, Debug};
use std::hash::Hash;

/// The two sides. `First` moves first: Black in Ataxx and NoGo, Red in Pencil.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Player {
    First,
    Second,
}

impl Player {
    pub const BOTH: [Player; 2] = [Player::First, Player::Second];

    pub const fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    pub const fn index(self) -> usize {
        match self {
            Player::First => 0,
            Player::Second => 1,
        }
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    Win(Player),
    Draw,
}

impl Outcome {
    /// 1 for a win of `player`, 0.5 for a draw, 0 for a loss.
    pub fn reward(self, player: Player) -> f64 {
        match self {
            Outcome::Win(p) if p == player => 1.0,
            Outcome::Win(_) => 0.0,
            Outcome::Draw => 0.5,
        }
    }
}

/// A position of a two-player game with perfect information.
///
/// Positions are values: `play` changes this one, callers clone to keep the old one.
/// Search must compare `to_move` before and after a move instead of assuming that
/// sides alternate: in Dots-and-Boxes completing a box keeps the turn.
pub trait Game: Clone + Send + Sync + 'static {
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;

    /// The side whose move it is (meaningless once `outcome` is `Some`).
    fn to_move(&self) -> Player;

    /// Clears `moves` and fills it with every legal move (empty when the game is over).
    fn legal_moves(&self, moves: &mut Vec<Self::Move>);

    /// Plays a move that `legal_moves` produced. Unchecked beyond `debug_assert!`.
    fn play(&mut self, mv: Self::Move);

    /// `Some` once the game is over. `legal_moves` is empty exactly when this is `Some`.
    fn outcome(&self) -> Option<Outcome>;

    /// How many distinct move indices there are (see `move_index`).
    const MOVE_SPACE: usize;

    /// A dense index of a move in `0..MOVE_SPACE`, the same for the same move in any
    /// position (RAVE shares statistics between positions by it).
    fn move_index(mv: Self::Move) -> usize;
}

/// A game's exact rules as a judge applies them: the start position, checked moves, and
/// every answer the judge accepts. (Search needs only [`Game`]; the protocol, the arena
/// and the front ends need this.)
pub trait Rules: Game + fmt::Display {
    /// The game's name on the command line and in error messages.
    const NAME: &'static str;

    fn start() -> Self;

    /// Plays `mv` if it is legal here, else says why not.
    fn try_play(&mut self, mv: Self::Move) -> Result<(), String>;

    /// Every answer the judge accepts (moves, not pass): for `--legal`. Ataxx's judge
    /// accepts a clone from any neighbouring piece, so it lists more than `legal_moves`.
    fn legal_responses(&self) -> Vec<Self::Move> {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves
    }

    /// Leaf count `depth` plies ahead.
    fn perft(&self, depth: u32) -> u64 {
        perft(self, depth)
    }

    /// Why the game is over, in words (for people: `arena play`, `replay`); `None` while
    /// it runs.
    fn end_reason(&self) -> Option<String> {
        self.outcome().map(|_| "game over".into())
    }
}

/// Leaf count `depth` plies ahead, counting the last ply in bulk.
pub fn perft<G: Game>(game: &G, depth: u32) -> u64 {
    if depth == 0 || game.outcome().is_some() {
        return u64::from(depth == 0 && game.outcome().is_none());
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&mv| {
            let mut child = game.clone();
            child.play(mv);
            perft(&child, depth - 1)
        })
        .sum()
}

/// Whether `winner` can force a win from `game` within `plies` plies (exhaustive search;
/// for short horizons only).
pub fn forces_win<G: Game>(game: &G, winner: Player, plies: u32) -> bool {
    if let Some(outcome) = game.outcome() {
        return outcome == Outcome::Win(winner);
    }
    if plies == 0 {
        return false;
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let wins_after = |mv| {
        let mut next = game.clone();
        next.play(mv);
        forces_win(&next, winner, plies - 1)
    };
    if game.to_move() == winner {
        moves.into_iter().any(wins_after)
    } else {
        moves.into_iter().all(wins_after)
    }
}

/// A 64-bit mixing function (splitmix64's finaliser) for hashing positions from their
/// bitboards: every input bit affects every output bit.
pub const fn mix64(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}
