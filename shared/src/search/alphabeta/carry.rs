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
//! the history scores the next search keeps (see [`put_history`]); then the entries, 8
//! bytes each, one `u64` of bit fields (low bits first): its parent (14 bits, its index in
//! the order entries were written; the first entry, the position after the played move,
//! has none), the move from the parent (12), its score (16, see [`score_code`]), best move
//! (12), draft (6) and bound (2). Version 1 spent 12 bytes on the same fields and 9.6 KB
//! on every history score: the room now holds about 60% more entries. The positions are
//! rebuilt from the moves on resuming, so a key is never trusted from the bytes and every
//! move is checked for legality where it is played.

use super::{AlphaBeta, Bound, Evaluator, TtEntry, HISTORY_DECAY, MAX_PLY, WIN};
use crate::game::Game;
use crate::search::{carry_header, CarriedReader};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};

const VERSION: u8 = 2;
const ENTRY_BYTES: usize = 8;
/// Children looked up in the table while choosing the entries: a bound on the time the
/// walk takes after the search (about 0.07 µs each for Ataxx, slots prefetched). After a
/// 1000 ms search 90,000 fill the room; the walk and the output then take 6-7 ms.
const MAX_LOOKUPS: usize = 90_000;
/// The widths of an entry's fields, and the value of a full field that says "none".
const PARENT_BITS: u32 = 14;
const MOVE_BITS: u32 = 12;
const SCORE_BITS: u32 = 16;
const DRAFT_BITS: u32 = 6;
const HISTORY_INDEX_BITS: u32 = 13;
const NO_PARENT: usize = (1 << PARENT_BITS) - 1;
const NO_MOVE: usize = (1 << MOVE_BITS) - 1;
const MAX_DRAFT: i32 = (1 << DRAFT_BITS) - 1;
/// Scores up to this size are written as they are; won and lost scores (`WIN - plies`)
/// after it, by their plies.
const PLAIN_SCORE: i32 = 30_000;

/// A score in 16 bits: a running game's value as it is, a won or lost one by its plies
/// to the end; `None` for any other (no entry of ours holds one, and none is carried).
fn score_code(score: i32) -> Option<u16> {
    let code = if score.abs() <= PLAIN_SCORE {
        score
    } else if score.abs() >= WIN - MAX_PLY && score.abs() <= WIN {
        score.signum() * (PLAIN_SCORE + 1 + WIN - score.abs())
    } else {
        return None;
    };
    Some(code as i16 as u16)
}

fn score_of_code(code: u16) -> Result<i32, String> {
    let code = i32::from(code as i16);
    let plies = code.abs() - PLAIN_SCORE - 1;
    match plies {
        ..0 => Ok(code),
        0..=MAX_PLY => Ok(code.signum() * (WIN - plies)),
        _ => Err(format!("score code {code}")),
    }
}

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
        let first = self.table_entry(&after).filter(|e| e.depth >= 1)?;
        let mut history = self.history_moves.clone();
        history.push(played);
        let mut out = carry_header::<G>(&history);
        out.push(VERSION);
        put_history(&mut out, &self.history);
        if out.len() + ENTRY_BYTES > max_bytes {
            return None;
        }
        // The keys of the positions written, and (draft, written order) of the written
        // entries whose children are not yet looked at.
        let mut written = HashSet::from([self.eval.hash(&after)]);
        let mut positions = vec![after];
        let mut frontier = BinaryHeap::from([(first.depth, Reverse(0usize))]);
        out.extend_from_slice(&pack::<G>(NO_PARENT, NO_MOVE, &first)?.to_le_bytes());
        let (mut lookups, mut moves) = (0, Vec::new());
        let mut children = Vec::new();
        'walk: while let Some((_, Reverse(parent))) = frontier.pop() {
            let g = &positions[parent];
            g.legal_moves(&mut moves);
            // Every child's slot asked for before the first is read: each probe misses the
            // cache, and the misses overlap (about a third off the walk's time).
            children.clear();
            for &mv in &moves {
                let mut child = g.clone();
                child.play(mv);
                let key = self.eval.hash(&child);
                self.prefetch_key(key);
                children.push((mv, child, key));
            }
            for (mv, child, key) in children.drain(..) {
                if lookups == MAX_LOOKUPS || positions.len() == NO_PARENT {
                    break 'walk;
                }
                lookups += 1;
                if written.contains(&key) {
                    continue;
                }
                // Drafts below 1 are cheaper to search again than to carry.
                let Some(entry) = self.probe(key).filter(|e| e.depth >= 1) else { continue };
                let Some(packed) = pack::<G>(parent, G::move_index(mv), &entry) else { continue };
                if out.len() + ENTRY_BYTES > max_bytes {
                    break 'walk;
                }
                written.insert(key);
                out.extend_from_slice(&packed.to_le_bytes());
                frontier.push((entry.depth, Reverse(positions.len())));
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
        for _ in 0..bytes.u16()? {
            let mut fields = Fields(u64::from(bytes.u32()?));
            let index = fields.take(HISTORY_INDEX_BITS);
            let score = fields.take(SCORE_BITS) as u16 as i16;
            let slot = scores.get_mut(index).filter(|_| fields.0 == 0).ok_or("a history score out of range")?;
            *slot = i32::from(score);
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
            let mut fields = Fields(bytes.u64()?);
            let (parent, mv) = (fields.take(PARENT_BITS), fields.take(MOVE_BITS));
            let position = if positions.is_empty() {
                if parent != NO_PARENT || mv != NO_MOVE {
                    return Err("the first entry has a parent".into());
                }
                root.clone()
            } else {
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
            let score = score_of_code(fields.take(SCORE_BITS) as u16)?;
            let best = match fields.take(MOVE_BITS) {
                NO_MOVE => None,
                index => {
                    position.legal_moves(&mut own);
                    Some(move_with_index::<G>(&own, index).ok_or("a best move not legal in its position")?)
                }
            };
            let depth = fields.take(DRAFT_BITS) as i32;
            let bound = match fields.take(2) {
                0 => Bound::Exact,
                1 => Bound::Lower,
                2 => Bound::Upper,
                b => return Err(format!("bound {b}")),
            };
            if depth < 1 || fields.0 != 0 {
                return Err(format!("entry {}: draft {depth}, or bits beyond its fields", positions.len()));
            }
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

/// An entry's fields in one `u64`: `None` where the move's index or the score does not
/// fit its field (never for Ataxx: 2,401 move indices, scores within ±30,000 or won). A
/// draft beyond the field is written lower, which claims less than was searched.
fn pack<G: Game>(parent: usize, mv: usize, e: &TtEntry<G::Move>) -> Option<u64> {
    let best = e.best.map_or(NO_MOVE, G::move_index);
    if mv > NO_MOVE || best > NO_MOVE || parent > NO_PARENT {
        return None;
    }
    Some(packed(&[
        (parent as u64, PARENT_BITS),
        (mv as u64, MOVE_BITS),
        (u64::from(score_code(e.score)?), SCORE_BITS),
        (best as u64, MOVE_BITS),
        (i32::from(e.depth).clamp(0, MAX_DRAFT) as u64, DRAFT_BITS),
        (u64::from(bound_byte(e.bound)), 2),
    ]))
}

/// Values of the given widths side by side, the first in the low bits (read back by
/// [`Fields`]).
fn packed(fields: &[(u64, u32)]) -> u64 {
    let (mut packed, mut shift) = (0u64, 0);
    for &(value, bits) in fields {
        packed |= value << shift;
        shift += bits;
    }
    packed
}

/// The history scores that the next search keeps (those its decay leaves above zero),
/// clamped into 16 bits: their count (2 bytes), then each one's index and score in 4 (13
/// bits and 16). About a fifth of Ataxx's 4,802 are written, where all of them took 9.6 KB.
/// None where an index would not fit.
fn put_history(out: &mut Vec<u8>, history: &[i32]) {
    let fits = history.len() <= 1 << HISTORY_INDEX_BITS && history.len() <= usize::from(u16::MAX);
    let kept: Vec<(usize, i32)> =
        history.iter().copied().enumerate().filter(|&(_, h)| fits && h.abs() >= HISTORY_DECAY).collect();
    out.extend_from_slice(&(kept.len() as u16).to_le_bytes());
    for (index, h) in kept {
        let score = h.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16 as u16;
        let fields = packed(&[(index as u64, HISTORY_INDEX_BITS), (u64::from(score), SCORE_BITS)]);
        out.extend_from_slice(&(fields as u32).to_le_bytes());
    }
}

/// An entry's fields read back from the low bits up.
struct Fields(u64);

impl Fields {
    fn take(&mut self, bits: u32) -> usize {
        let value = self.0 & ((1 << bits) - 1);
        self.0 >>= bits;
        value as usize
    }
}

/// The move of `moves` whose index is `index`.
fn move_with_index<G: Game>(moves: &[G::Move], index: usize) -> Option<G::Move> {
    moves.iter().copied().find(|&m| G::move_index(m) == index)
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
        // More entries than version 1's 12 bytes each could fit in the whole room.
        assert!(next.carried.len() > 75_000 / 12, "{} entries", next.carried.len());
        // The history scores as the next search keeps them (after its decay).
        let decayed = |h: &[i32]| h.iter().map(|&h| h.clamp(-32768, 32767) / HISTORY_DECAY).collect::<Vec<_>>();
        assert_eq!(decayed(&next.history), decayed(&ab.history));
        assert!(next.history.iter().any(|&h| h != 0), "history scores carried");
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
    fn scores_round_trip_through_their_16_bits() {
        for score in [0, 1, -1, 345, -PLAIN_SCORE, PLAIN_SCORE, WIN, -WIN, WIN - 17, -(WIN - 17), WIN - MAX_PLY] {
            let code = score_code(score).unwrap_or_else(|| panic!("{score} has a code"));
            assert_eq!(score_of_code(code), Ok(score));
        }
        for score in [PLAIN_SCORE + 1, WIN / 2, -(WIN - MAX_PLY - 1), WIN + 1, -WIN - 1] {
            assert_eq!(score_code(score), None, "{score}");
        }
        assert!(score_of_code((PLAIN_SCORE + MAX_PLY + 2) as u16).is_err());
    }

    #[test]
    fn bytes_of_another_game_or_damaged_are_refused_and_nothing_is_kept() {
        let (_, history, after, bytes) = carried(20_000);
        let mut next = search();
        let other: Vec<Move> = history[..2].to_vec();
        assert!(next.resume(&bytes, &other, &after).is_err(), "another history");
        assert!(next.resume(&bytes[..bytes.len() - 5], &history, &after).is_err(), "cut short");
        let mut bad = bytes.clone();
        // The second entry's move (bits 14 to 25): an index no move has.
        let scores = u16::from_le_bytes(bytes[crate::search::CARRY_HEADER_BYTES + 1..][..2].try_into().unwrap());
        let second = crate::search::CARRY_HEADER_BYTES + 1 + 2 + 4 * usize::from(scores) + ENTRY_BYTES;
        bad[second + 1] |= 0xc0;
        bad[second + 2] = 0xff;
        bad[second + 3] |= 0x03;
        assert!(next.resume(&bad, &history, &after).is_err(), "an illegal move");
        // The first history score's index (13 bits): past the last move index.
        assert!(scores > 0);
        let mut bad = bytes.clone();
        let first = crate::search::CARRY_HEADER_BYTES + 1 + 2;
        bad[first] = 0xff;
        bad[first + 1] |= 0x1f;
        assert!(next.resume(&bad, &history, &after).is_err(), "a history score out of range");
        assert!(next.carried.is_empty() && next.history.iter().all(|&h| h == 0));
        assert!(next.resume(&bytes, &history, &after).is_ok());
    }
}
