//! Training records: one position from the side to move's view, its search score and
//! the game's result, in 20 bytes (little-endian):
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | the side to move's pieces (49-bit board, square 7*y+x) |
//! | 8..16 | the opponent's pieces |
//! | 16..18 | search score for the side to move, centi-pieces (±32000: a proven win/loss) |
//! | 18 | result for the side to move: 1 win, 0 draw, -1 loss |
//! | 19 | flags: bit 0 marks the last record of a game |
//!
//! A file is a sequence of whole games, so an interrupted writer leaves at most one
//! partial game at the end, which [`read_file`] drops (and `datagen` truncates).

use botzone_games::ataxx::Bitboard;
use std::io::Read;
use std::path::Path;

pub const RECORD_BYTES: usize = 20;
pub const PROVEN: i16 = 32000;
pub const GAME_END: u8 = 1;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Record {
    pub own: Bitboard,
    pub opp: Bitboard,
    pub score: i16,
    pub result: i8,
    pub flags: u8,
}

impl Record {
    pub fn encode(&self) -> [u8; RECORD_BYTES] {
        let mut b = [0; RECORD_BYTES];
        b[0..8].copy_from_slice(&self.own.0.to_le_bytes());
        b[8..16].copy_from_slice(&self.opp.0.to_le_bytes());
        b[16..18].copy_from_slice(&self.score.to_le_bytes());
        b[18] = self.result as u8;
        b[19] = self.flags;
        b
    }

    /// The record in `b`, or why it is not one (overlapping or out-of-board pieces, a
    /// result other than -1, 0, 1).
    pub fn decode(b: &[u8]) -> Result<Record, String> {
        let word = |at: usize| u64::from_le_bytes(b[at..at + 8].try_into().unwrap());
        let (own, opp) = (word(0), word(8));
        let result = b[18] as i8;
        if (own | opp) >> 49 != 0 || own & opp != 0 || !(-1..=1).contains(&result) {
            return Err("not a position record".into());
        }
        let score = i16::from_le_bytes([b[16], b[17]]);
        Ok(Record { own: Bitboard(own), opp: Bitboard(opp), score, result, flags: b[19] })
    }

    /// The empty squares of the record's position.
    pub fn empties(&self) -> u32 {
        self.own.or(self.opp).not().count()
    }

    pub fn ends_game(&self) -> bool {
        self.flags & GAME_END != 0
    }
}

/// Every whole game's records in `path`, and the byte length they take (a partial last
/// game is left out).
pub fn read_file(path: &Path) -> Result<(Vec<Record>, u64), String> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let mut records = Vec::with_capacity(bytes.len() / RECORD_BYTES);
    let mut whole = 0;
    for (i, chunk) in bytes.chunks_exact(RECORD_BYTES).enumerate() {
        let r = Record::decode(chunk).map_err(|e| format!("{}: record {i}: {e}", path.display()))?;
        records.push(r);
        if r.ends_game() {
            whole = records.len();
        }
    }
    records.truncate(whole);
    Ok((records, (whole * RECORD_BYTES) as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_and_bad_bytes_are_refused() {
        let r = Record { own: Bitboard(0b1011), opp: Bitboard(1 << 48), score: -1234, result: -1, flags: GAME_END };
        assert_eq!(Record::decode(&r.encode()), Ok(r));
        let mut overlapping = r.encode();
        overlapping[8] = 1;
        assert!(Record::decode(&overlapping).is_err());
        let mut off_board = r.encode();
        off_board[7] = 0x80;
        assert!(Record::decode(&off_board).is_err());
    }

    #[test]
    fn a_partial_last_game_is_dropped() {
        let dir = std::env::temp_dir().join(format!("ataxx-net-record-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("data.bin");
        let rec = |flags| Record { own: Bitboard(1), opp: Bitboard(2), score: 5, result: 1, flags };
        let mut bytes: Vec<u8> = [rec(0), rec(GAME_END), rec(0)].iter().flat_map(|r| r.encode()).collect();
        bytes.extend([1, 2, 3]); // a torn record
        std::fs::write(&path, &bytes).unwrap();
        let (records, len) = read_file(&path).unwrap();
        assert_eq!(records.len(), 2);
        assert_eq!(len, 2 * RECORD_BYTES as u64);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
