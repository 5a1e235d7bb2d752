//! The part of the transposition table under the move played, carried to the next turn
//! as bytes, for a bot whose process does not stay between turns (Botzone's `data`, at
//! most 100 KB): the next search, two plies further on, starts with the table entries a
//! kept-running bot would still hold for its subtree (move order, bounds that cut), and
//! with the history scores.
//!
//! Which entries: best first by their draft, from the position after the played move,
//! a child taken only where the table holds an entry for it, so that the walk stays in
//! what the last search looked at and the deepest results come first. A position reached
//! by two move orders (common in Ataxx) is written once, where the walk first meets it.
//!
//! Layout (little-endian), after the history header of [`carry_header`]: a version byte;
//! the history scores (2 bytes each, both sides, every move index); then the entries,
//! each its parent (its index in the order entries were written; the first entry, the
//! position after the played move, has none), the move from the parent (2 bytes each),
//! then its score (4), best move (2, `u16::MAX` for none), draft (1) and bound (1). The
//! positions are rebuilt from the moves on resuming, so a key is never trusted from the
//! bytes and every move is checked for legality where it is played.

use super::{AlphaBeta, Bound, Evaluator, TtEntry};
use crate::game::Game;
use crate::search::{carry_header, CarriedReader};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};

const VERSION: u8 = 1;
const ENTRY_BYTES: usize = 2 + 2 + 4 + 2 + 1 + 1;
/// Children looked up in the table while choosing the entries: a bound on the time the
/// walk takes after the search (about 0.1 µs each for Ataxx).
const MAX_LOOKUPS: usize = 60_000;
const NO_MOVE: u16 = u16::MAX;

fn bound_byte(b: Bound) -> u8 {
    match b {
        Bound::Exact => 0,
        Bound::Lower => 1,
        Bound::Upper => 2,
    }
}

impl<G: Game, E: Evaluator<G>> AlphaBeta<G, E> {
    fn table_entry(&self, g: &G) -> Option<TtEntry<G::Move>> {
        if self.tt.is_empty() {
            return None;
        }
        self.probe(self.eval.hash(g))
    }

    /// The table under `played` (the move the bot answers with) in at most `max_bytes`;
    /// `None` before any search, or where the table holds nothing for the position after it.
    pub(super) fn carry_table(&self, played: G::Move, max_bytes: usize) -> Option<Vec<u8>> {
        let mut after = self.last_root.clone()?;
        after.play(played);
        let first = self.table_entry(&after)?;
        let mut history = self.history_moves.clone();
        history.push(played);
        let mut out = carry_header::<G>(&history);
        out.push(VERSION);
        for &h in &self.history {
            out.extend_from_slice(&(h.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16).to_le_bytes());
        }
        if out.len() + ENTRY_BYTES > max_bytes {
            return None;
        }
        // The keys of the positions written, and (draft, written order) of the written
        // entries whose children are not yet looked at.
        let mut written = HashSet::from([self.eval.hash(&after)]);
        let mut positions = vec![after];
        let mut frontier = BinaryHeap::from([(first.depth, Reverse(0u16))]);
        put_entry::<G>(&mut out, NO_MOVE, NO_MOVE, &first);
        let (mut lookups, mut moves) = (0, Vec::new());
        'walk: while let Some((_, Reverse(parent))) = frontier.pop() {
            let g = positions[usize::from(parent)].clone();
            g.legal_moves(&mut moves);
            for &mv in &moves {
                if lookups == MAX_LOOKUPS || positions.len() == usize::from(NO_MOVE) {
                    break 'walk;
                }
                lookups += 1;
                let mut child = g.clone();
                child.play(mv);
                let key = self.eval.hash(&child);
                if written.contains(&key) {
                    continue;
                }
                // Drafts below 1 are cheaper to search again than to carry.
                let Some(entry) = self.probe(key).filter(|e| e.depth >= 1) else { continue };
                if out.len() + ENTRY_BYTES > max_bytes {
                    break 'walk;
                }
                written.insert(key);
                put_entry::<G>(&mut out, parent, G::move_index(mv) as u16, &entry);
                frontier.push((entry.depth, Reverse(positions.len() as u16)));
                positions.push(child);
            }
        }
        Some(out)
    }

    /// Takes back [`AlphaBeta::carry_table`]'s bytes, written after `history`, whose
    /// position is `root`: the history scores at once, the entries at the next search
    /// (the table is sized then). Nothing is kept from bytes that fail a check.
    pub(super) fn resume_table(&mut self, carried: &[u8], history: &[G::Move], root: &G) -> Result<(), String> {
        let mut bytes = CarriedReader::after_header::<G>(carried, history)?;
        if bytes.u8()? != VERSION {
            return Err("written by another version".into());
        }
        let mut scores = vec![0; self.history.len()];
        for h in &mut scores {
            *h = i32::from(bytes.i16()?);
        }
        if bytes.left() % ENTRY_BYTES != 0 {
            return Err(format!("{} bytes of entries, not a whole number of {ENTRY_BYTES}", bytes.left()));
        }
        let mut positions: Vec<G> = Vec::with_capacity(bytes.left() / ENTRY_BYTES);
        let mut entries = Vec::with_capacity(positions.capacity());
        // The legal moves of the last parent looked at (entries come grouped by parent),
        // and of each entry's own position for its best move.
        let (mut moves, mut legal_of, mut own) = (Vec::new(), usize::MAX, Vec::new());
        while bytes.left() > 0 {
            let (parent, mv) = (bytes.u16()?, bytes.u16()?);
            let position = if positions.is_empty() {
                if parent != NO_MOVE || mv != NO_MOVE {
                    return Err("the first entry has a parent".into());
                }
                root.clone()
            } else {
                let parent = usize::from(parent);
                let from = positions.get(parent).ok_or(format!("entry {} names a later parent", positions.len()))?;
                if legal_of != parent {
                    from.legal_moves(&mut moves);
                    legal_of = parent;
                }
                let mv = move_with_index::<G>(&moves, mv).ok_or("a move not legal there")?;
                let mut child = from.clone();
                child.play(mv);
                child
            };
            let score = bytes.i32()?;
            let best = match bytes.u16()? {
                NO_MOVE => None,
                index => {
                    position.legal_moves(&mut own);
                    Some(move_with_index::<G>(&own, index).ok_or("a best move not legal in its position")?)
                }
            };
            let depth = i32::from(bytes.u8()? as i8);
            let bound = match bytes.u8()? {
                0 => Bound::Exact,
                1 => Bound::Lower,
                2 => Bound::Upper,
                b => return Err(format!("bound {b}")),
            };
            let key = self.eval.hash(&position);
            entries.push((key, TtEntry::new(key, depth, score, bound, best)));
            positions.push(position);
        }
        self.history = scores;
        self.carried = entries;
        Ok(())
    }

    /// Puts the carried entries into the table (sized for this search), the deeper one
    /// where two share a slot.
    pub(super) fn restore_carried(&mut self) {
        for (key, entry) in std::mem::take(&mut self.carried) {
            let slot = self.tt_index(key);
            if self.tt[slot].is_none_or(|old| old.depth <= entry.depth) {
                self.tt[slot] = Some(entry);
            }
        }
    }
}

fn put_entry<G: Game>(out: &mut Vec<u8>, parent: u16, mv: u16, e: &TtEntry<G::Move>) {
    out.extend_from_slice(&parent.to_le_bytes());
    out.extend_from_slice(&mv.to_le_bytes());
    out.extend_from_slice(&e.score.to_le_bytes());
    out.extend_from_slice(&e.best.map_or(NO_MOVE, |m| G::move_index(m) as u16).to_le_bytes());
    out.push(e.depth as u8);
    out.push(bound_byte(e.bound));
}

/// The move of `moves` whose index is `index`.
fn move_with_index<G: Game>(moves: &[G::Move], index: u16) -> Option<G::Move> {
    moves.iter().copied().find(|&m| G::move_index(m) == usize::from(index))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ataxx::eval::MATERIAL_ONLY;
    use crate::ataxx::{Board, Move};
    use crate::engines::ataxx::{AtaxxEval, Evaluation};
    use crate::engines::HasModel;
    use crate::search::alphabeta::AlphaBetaConfig;
    use crate::search::{Budget, Engine};

    fn search() -> AlphaBeta<Board, AtaxxEval> {
        AlphaBeta::new(AlphaBetaConfig::EXACT, AtaxxEval::new(Evaluation::Terms(MATERIAL_ONLY)))
    }

    /// A searched position two moves in, the move the search chose there, and the bytes it
    /// carries after it.
    fn carried(max_bytes: usize) -> (AlphaBeta<Board, AtaxxEval>, Vec<Move>, Board, Vec<u8>) {
        let mut board = crate::ataxx::Position::start().model();
        let mut moves = Vec::new();
        let mut history = Vec::new();
        for _ in 0..2 {
            board.legal_moves(&mut moves);
            board.play(moves[0]);
            history.push(moves[0]);
        }
        board.legal_moves(&mut moves);
        let mut ab = search();
        ab.set_history(&history);
        let played = ab.search(&board, &moves, &Budget::iterations(300_000)).best;
        let bytes = ab.carry(played, max_bytes).expect("the position after the move was searched");
        history.push(played);
        board.play(played);
        (ab, history, board, bytes)
    }

    #[test]
    fn the_next_turn_gets_the_table_entries_under_the_move_played() {
        let (ab, history, after, bytes) = carried(75_000);
        assert!(bytes.len() <= 75_000 && bytes.len() > 60_000, "{} bytes: the room is used", bytes.len());
        let mut next = search();
        next.resume(&bytes, &history, &after).expect("its own bytes");
        assert!(next.carried.len() > 2_000, "{} entries", next.carried.len());
        assert_eq!(next.history, ab.history.iter().map(|&h| h.clamp(-32768, 32767)).collect::<Vec<_>>());
        // Each carried entry is the one the searcher held for that position.
        next.prepare(&Budget::iterations(1 << 20));
        let entries = next.carried.clone();
        next.restore_carried();
        for &(key, entry) in &entries {
            let held = ab.tt[ab.tt_index(key)].expect("carried from the table");
            assert_eq!(held.check, entry.check);
            assert_eq!((held.score, held.best, held.depth), (entry.score, entry.best, entry.depth));
        }
        // Each position once, however many move orders reach it.
        let keys: std::collections::HashSet<u64> = entries.iter().map(|&(key, _)| key).collect();
        assert_eq!(keys.len(), entries.len(), "{} entries, {} positions", entries.len(), keys.len());
        // The first is the position after the move, the deepest of them.
        let root = next.table_entry(&after).expect("the root's entry is restored");
        assert_eq!(root.depth, ab.table_entry(&after).expect("searched").depth);
    }

    #[test]
    fn bytes_of_another_game_or_damaged_are_refused_and_nothing_is_kept() {
        let (_, history, after, bytes) = carried(20_000);
        let mut next = search();
        let other: Vec<Move> = history[..2].to_vec();
        assert!(next.resume(&bytes, &other, &after).is_err(), "another history");
        assert!(next.resume(&bytes[..bytes.len() - 5], &history, &after).is_err(), "cut short");
        let mut bad = bytes.clone();
        // The second entry's move: an index no move has.
        let second = crate::search::CARRY_HEADER_BYTES + 1 + 2 * next.history.len() + ENTRY_BYTES;
        bad[second + 2..second + 4].copy_from_slice(&60_000u16.to_le_bytes());
        assert!(next.resume(&bad, &history, &after).is_err(), "an illegal move");
        assert!(next.carried.is_empty() && next.history.iter().all(|&h| h == 0));
        assert!(next.resume(&bytes, &history, &after).is_ok());
    }
}
