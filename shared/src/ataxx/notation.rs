//! Ataxx as the engine world writes it (UAI, FEN): squares `a1`-`g7` with files a-g from
//! Botzone's left (x) and ranks 1-7 from the bottom (rank 7 is Botzone's y = 0); a clone
//! as its target square (`f6`), a jump as source and target (`a7c5`), a pass as `0000`.
//! FEN: ranks 7 to 1 separated by `/`, `x` black (first), `o` white, digits for empty
//! squares, then the side to move, the half-move clock and the full-move number:
//! the start is `x5o/7/7/7/7/7/o5x x 0 1`.

use super::bitboard::{Bitboard, Square, RING1};
use super::board::{Move, Position};
use crate::game::{Game, Player};

pub const START_FEN: &str = "x5o/7/7/7/7/7/o5x x 0 1";

/// `a1`..`g7`.
pub fn square_name(sq: Square) -> String {
    let (x, y) = Bitboard::coords(sq);
    format!("{}{}", char::from(b'a' + x), 7 - y)
}

pub fn parse_square(text: &str) -> Result<Square, String> {
    let b = text.as_bytes();
    match b {
        [f @ b'a'..=b'g', r @ b'1'..=b'7'] => Ok(Bitboard::square(f - b'a', 7 - (r - b'0'))),
        _ => Err(format!("{text:?} is not a square a1-g7")),
    }
}

/// A move as UAI writes it: the target for a clone, source and target for a jump.
pub fn move_text(mv: Move) -> String {
    if mv.is_jump() {
        format!("{}{}", square_name(mv.from), square_name(mv.to))
    } else {
        square_name(mv.to)
    }
}

/// A move in UAI notation, legal in `p` (any source of a clone is the same move).
pub fn parse_move(p: &Position, text: &str) -> Result<Move, String> {
    let text = text.trim();
    let wanted = match text.len() {
        2 => (None, parse_square(text)?),
        4 => (Some(parse_square(&text[..2])?), parse_square(&text[2..])?),
        _ => return Err(format!("{text:?} is not an Ataxx move (a clone `f6` or a jump `a7c5`)")),
    };
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    moves
        .into_iter()
        .find(|mv| match wanted {
            (None, to) => !mv.is_jump() && mv.to == to,
            (Some(from), to) => mv.is_jump() && mv.from == from && mv.to == to,
        })
        .ok_or_else(|| format!("{text} is not a legal move here: {}", why_illegal(p, wanted)))
}

/// The judge's reason for refusing a move that `parse_move` read but did not find among
/// the legal ones (a repetition, say, is otherwise hard to tell from a lost piece).
fn why_illegal(p: &Position, (from, to): (Option<Square>, Square)) -> String {
    // A clone may come from any of the side to move's neighbours of the target.
    let Some(source) = from.or_else(|| RING1[to as usize].and(p.pieces(p.to_move())).iter().next()) else {
        return if p.empty().contains(to) {
            format!("no piece of the side to move next to {}", square_name(to))
        } else {
            format!("the target {} is not empty", square_name(to))
        };
    };
    match p.check(Move { from: source, to }) {
        Err(why) => why,
        Ok(()) if RING1[source as usize].contains(to) => {
            format!("a clone is written as its target alone ({})", square_name(to))
        }
        Ok(()) => "the game's rules refuse it".into(),
    }
}

/// The position in FEN (the half-move clock is not tracked: written as 0).
pub fn fen(p: &Position) -> String {
    let mut ranks = Vec::with_capacity(7);
    for y in 0..7 {
        let mut rank = String::new();
        let mut empty = 0;
        for x in 0..7 {
            let sq = Bitboard::square(x, y);
            let piece = if p.pieces(Player::First).contains(sq) {
                'x'
            } else if p.pieces(Player::Second).contains(sq) {
                'o'
            } else {
                empty += 1;
                continue;
            };
            if empty > 0 {
                rank.push(char::from(b'0' + empty));
                empty = 0;
            }
            rank.push(piece);
        }
        if empty > 0 {
            rank.push(char::from(b'0' + empty));
        }
        ranks.push(rank);
    }
    let side = if p.to_move() == Player::First { 'x' } else { 'o' };
    format!("{} {side} 0 {}", ranks.join("/"), p.ply() / 2 + 1)
}

/// A position from FEN. Gaps (`-`, blocked squares) do not exist on Botzone's board and
/// are refused. The ply (which the 401-move cap counts) comes from the full-move number.
pub fn parse_fen(text: &str) -> Result<Position, String> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let (board, side) = match fields.as_slice() {
        [board, side, ..] if fields.len() <= 4 => (*board, *side),
        _ => return Err(format!("a FEN has 2 to 4 fields: {text:?}")),
    };
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 7 {
        return Err(format!("a FEN board has 7 ranks, got {}", ranks.len()));
    }
    let (mut black, mut white) = (Bitboard::EMPTY, Bitboard::EMPTY);
    for (y, rank) in ranks.iter().enumerate() {
        let mut x = 0u8;
        for c in rank.chars() {
            match c {
                '1'..='7' => x += c as u8 - b'0',
                'x' | 'X' | 'b' | 'B' | 'o' | 'O' | 'w' | 'W' if x < 7 => {
                    let sq = Bitboard::square(x, y as u8);
                    if matches!(c, 'x' | 'X' | 'b' | 'B') {
                        black = black.with(sq);
                    } else {
                        white = white.with(sq);
                    }
                    x += 1;
                }
                '-' => return Err("blocked squares (-) are not on Botzone's board".into()),
                _ => return Err(format!("rank {} of the FEN: unexpected {c:?}", 7 - y)),
            }
        }
        if x != 7 {
            return Err(format!("rank {} of the FEN has {x} squares, not 7", 7 - y));
        }
    }
    let to_move = match side {
        "x" | "X" | "b" | "B" => Player::First,
        "o" | "O" | "w" | "W" => Player::Second,
        _ => return Err(format!("side to move {side:?} is neither x nor o")),
    };
    let full_moves: u16 = match fields.get(3) {
        Some(n) => n.parse().map_err(|_| format!("full-move number {n:?} is not a number"))?,
        None => 1,
    };
    let ply = 2 * full_moves.saturating_sub(1) + u16::from(to_move == Player::Second);
    Ok(Position::from_parts(black, white, to_move, ply))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_round_trips_and_matches_botzone_corners() {
        let p = parse_fen(START_FEN).unwrap();
        assert_eq!(fen(&p), START_FEN);
        assert_eq!(fen(&Position::start()), START_FEN);
        // Botzone's black starts on (0,0): a7 (top left).
        assert_eq!(square_name(Bitboard::square(0, 0)), "a7");
        assert_eq!(square_name(Bitboard::square(6, 6)), "g1");
    }

    #[test]
    fn a_refused_move_says_why() {
        // Two jumps out and back by each side: the start again, where a7a5 would repeat
        // the pair of positions of the first move.
        let mut p = Position::start();
        for text in ["a7a5", "g7g5", "a5a7", "g5g7"] {
            let mv = parse_move(&p, text).unwrap();
            p.try_play(mv).unwrap();
        }
        let why = |text: &str| parse_move(&p, text).unwrap_err();
        assert!(why("a7a5").contains("CIRCULAR_MOVE"), "{}", why("a7a5"));
        assert!(why("d4").contains("no piece of the side to move next to d4"), "{}", why("d4"));
        assert!(why("a7").contains("target a7 is not empty"), "{}", why("a7"));
        assert!(why("g7g6").contains("no piece of the side to move"), "{}", why("g7g6"));
        assert!(why("a7a6").contains("a clone is written as its target alone (a6)"), "{}", why("a7a6"));
        assert!(parse_move(&p, "a6").is_ok());
    }

    #[test]
    fn every_legal_move_round_trips_through_its_text() {
        let mut p = Position::start();
        let mut rng = fastrand::Rng::with_seed(3);
        let mut moves = Vec::new();
        for _ in 0..40 {
            p.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            for &mv in &moves {
                let back = parse_move(&p, &move_text(mv)).unwrap();
                assert_eq!((back.to, back.is_jump()), (mv.to, mv.is_jump()));
                if mv.is_jump() {
                    assert_eq!(back.from, mv.from);
                }
            }
            p.try_play(moves[rng.usize(..moves.len())]).unwrap();
            assert_eq!(fen(&parse_fen(&fen(&p)).unwrap()), fen(&p));
        }
        assert!(parse_move(&p, "a8").is_err() && parse_move(&p, "zz").is_err());
    }
}
