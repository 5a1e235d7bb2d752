//! Search engines, generic over [`Game`]: one file per algorithm.

pub mod alphabeta;
pub mod clock;
pub mod flat_mc;
pub mod mcts;
pub mod memory;
pub mod pages;
pub mod pair_table;
pub mod parallel;
pub mod random;

pub use clock::{Budget, Deadline};

use crate::game::Game;

/// A search's value of its chosen move, for the side to move.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Score {
    /// An evaluation in the engine's own hundredths (Ataxx: centi-pieces).
    Centi(i32),
    /// A proven win reached this many plies from the root ...
    WinIn(u32),
    /// ... or a proven loss.
    LossIn(u32),
    /// A Monte Carlo mean, 0..1.
    WinRate(f64),
}

/// What a search returns: the move to play and a one-line summary for Botzone's `debug`.
#[derive(Debug, Clone)]
pub struct SearchResult<M> {
    pub best: M,
    pub summary: String,
    /// The value of `best`, where the search has one.
    pub score: Option<Score>,
    /// The deepest completed iteration of a depth-first search (0 for others).
    pub depth: u32,
    /// The search's work in its own unit (tree nodes, alpha-beta nodes): the bench
    /// signature is built from it.
    pub nodes: u64,
    /// Root statistics `(move, visits, mean value for the side to move)`, where the
    /// engine has them; root parallelism merges these.
    pub root_stats: Vec<(M, u64, f64)>,
}

/// A search algorithm with its settings.
pub trait Engine<G: Game>: Send {
    /// Chooses one of `root_moves` (non-empty, all legal in `game`).
    fn search(&mut self, game: &G, root_moves: &[G::Move], budget: &Budget) -> SearchResult<G::Move>;

    /// Every move of the game so far, given before each search, so that an engine that
    /// keeps its tree between turns (keep-running) can find the new root in it.
    fn set_history(&mut self, _moves: &[G::Move]) {}

    /// What this engine would carry to its next turn of the same game when its process
    /// does not stay (Botzone's `data`), after its last search chose `played`: at most
    /// `max_bytes`, or `None` when it keeps nothing. Its first bytes say which history it
    /// belongs to (see [`carried_history`]).
    fn carry(&self, _played: G::Move, _max_bytes: usize) -> Option<Vec<u8>> {
        None
    }

    /// Takes back what [`Engine::carry`] gave on an earlier turn of this game: `root` is
    /// the position after `history`, the history the carried bytes belong to. An error
    /// says why they were refused; the engine is then as if nothing had been carried.
    fn resume(&mut self, _carried: &[u8], _history: &[G::Move], _root: &G) -> Result<(), String> {
        Err("this engine carries nothing between turns".into())
    }
}

/// The length of [`carry_header`]'s header: the history's length (2 bytes) and hash (8).
pub const CARRY_HEADER_BYTES: usize = 2 + 8;

/// The history carried bytes belong to, from their first [`CARRY_HEADER_BYTES`]: its
/// length and a hash of its moves, as [`carry_header`] wrote them. `None` when they are
/// too short.
pub fn carried_history(carried: &[u8]) -> Option<(usize, u64)> {
    let len = u16::from_le_bytes(carried.get(..2)?.try_into().ok()?);
    let hash = u64::from_le_bytes(carried.get(2..CARRY_HEADER_BYTES)?.try_into().ok()?);
    Some((usize::from(len), hash))
}

/// Carried bytes read in order after their header, every read checked against their end.
pub(crate) struct CarriedReader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> CarriedReader<'a> {
    /// The bytes after the header, if the header names `history` (its length and hash).
    pub(crate) fn after_header<G: Game>(carried: &'a [u8], history: &[G::Move]) -> Result<Self, String> {
        let (len, hash) = carried_history(carried).ok_or("too short for its header")?;
        if len != history.len() || hash != history_hash::<G>(history) {
            return Err("carried for another history".into());
        }
        Ok(CarriedReader { bytes: carried, at: CARRY_HEADER_BYTES })
    }

    /// Bytes not yet read.
    pub(crate) fn left(&self) -> usize {
        self.bytes.len() - self.at
    }

    fn take<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let slice = self.bytes.get(self.at..self.at + N).ok_or("cut short")?;
        self.at += N;
        Ok(slice.try_into().expect("N bytes"))
    }

    pub(crate) fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take::<1>()?[0])
    }

    pub(crate) fn u16(&mut self) -> Result<u16, String> {
        Ok(u16::from_le_bytes(self.take()?))
    }

    pub(crate) fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.take()?))
    }

    pub(crate) fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.take()?))
    }

    pub(crate) fn f32(&mut self) -> Result<f32, String> {
        Ok(f32::from_le_bytes(self.take()?))
    }
}

/// The header of carried bytes: the history's length and hash (see [`carried_history`]).
pub fn carry_header<G: Game>(history: &[G::Move]) -> Vec<u8> {
    let mut header = Vec::with_capacity(CARRY_HEADER_BYTES);
    header.extend_from_slice(&(history.len().min(u16::MAX as usize) as u16).to_le_bytes());
    header.extend_from_slice(&history_hash::<G>(history).to_le_bytes());
    header
}

/// A hash of a move sequence (by `Game::move_index`).
pub fn history_hash<G: Game>(history: &[G::Move]) -> u64 {
    history.iter().fold(0x9E37_79B9_7F4A_7C15, |h, &mv| crate::game::mix64(h ^ (G::move_index(mv) as u64 + 1)))
}
