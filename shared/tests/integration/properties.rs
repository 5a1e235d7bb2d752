//! Property tests over seeded random games: our bitboard rules agree with plain,
//! independent implementations written from the rule text, every generated move is legal,
//! and a position rebuilt from its Botzone history equals the one played.

use botzone_games::ataxx::{self, Bitboard};
use botzone_games::botzone::{BotzoneGame, Match, Transcript};
use botzone_games::dots;
use botzone_games::game::{Game, Outcome, Player};
use botzone_games::nogo;

/// Ataxx from the rule text: cells[x][y] in {0, 1 black, -1 white}, every snapshot kept.
#[derive(Clone)]
struct NaiveAtaxx {
    cells: [[i8; 7]; 7],
    turn: i8,
    moves: u32,
    snapshots: Vec<[[i8; 7]; 7]>,
}

impl NaiveAtaxx {
    fn new() -> Self {
        let mut cells = [[0; 7]; 7];
        cells[0][0] = 1;
        cells[6][6] = 1;
        cells[6][0] = -1;
        cells[0][6] = -1;
        NaiveAtaxx { cells, turn: 1, moves: 0, snapshots: vec![cells] }
    }
    fn geometric(&self, color: i8) -> Vec<(usize, usize, usize, usize)> {
        let mut out = Vec::new();
        for x0 in 0..7 {
            for y0 in 0..7 {
                if self.cells[x0][y0] != color {
                    continue;
                }
                for x1 in 0..7 {
                    for y1 in 0..7 {
                        let d = (x0 as i32 - x1 as i32).abs().max((y0 as i32 - y1 as i32).abs());
                        if (d == 1 || d == 2) && self.cells[x1][y1] == 0 {
                            out.push((x0, y0, x1, y1));
                        }
                    }
                }
            }
        }
        out
    }
    fn placed(&self, m: (usize, usize, usize, usize)) -> [[i8; 7]; 7] {
        let mut c = self.cells;
        let d = (m.0 as i32 - m.2 as i32).abs().max((m.1 as i32 - m.3 as i32).abs());
        if d == 2 {
            c[m.0][m.1] = 0;
        }
        c[m.2][m.3] = self.turn;
        c
    }
    fn circular(&self, m: (usize, usize, usize, usize)) -> bool {
        let mnum = self.snapshots.len(); // this move would be move number m
        let s_prev = self.snapshots[mnum - 1];
        let s_new = self.placed(m);
        (0..mnum.saturating_sub(2))
            .any(|i| i + 3 <= mnum && self.snapshots[i] == s_prev && self.snapshots[i + 1] == s_new)
    }
    fn legal(&self) -> Vec<(usize, usize, usize, usize)> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        self.geometric(self.turn).into_iter().filter(|&m| !self.circular(m)).collect()
    }
    fn play(&mut self, m: (usize, usize, usize, usize)) {
        let mut c = self.placed(m);
        self.snapshots.push(c);
        for dx in -1i32..=1 {
            for dy in -1i32..=1 {
                let (x, y) = (m.2 as i32 + dx, m.3 as i32 + dy);
                if (0..7).contains(&x) && (0..7).contains(&y) && c[x as usize][y as usize] == -self.turn {
                    c[x as usize][y as usize] = self.turn;
                }
            }
        }
        self.cells = c;
        self.turn = -self.turn;
        self.moves += 1;
    }
    fn count(&self, color: i8) -> usize {
        self.cells.iter().flatten().filter(|&&c| c == color).count()
    }
    fn outcome(&self) -> Option<i8> {
        if self.moves == 0 {
            return None;
        }
        if self.count(self.turn) == 0 {
            return Some(-self.turn);
        }
        let black = !self.geometric(1).is_empty();
        let white = !self.geometric(-1).is_empty();
        if black && white && self.moves < 401 {
            return None;
        }
        let (mut b, mut w) = (self.count(1), self.count(-1));
        let empty = self.count(0);
        if black && !white {
            b += empty;
        }
        if white && !black {
            w += empty;
        }
        Some((b as i32 - w as i32).signum() as i8)
    }
}

fn to_naive(m: ataxx::Move) -> (usize, usize, usize, usize) {
    let (x0, y0) = Bitboard::coords(m.from);
    let (x1, y1) = Bitboard::coords(m.to);
    (x0 as usize, y0 as usize, x1 as usize, y1 as usize)
}

fn outcome_sign(o: Option<Outcome>) -> Option<i8> {
    o.map(|o| match o {
        Outcome::Win(Player::First) => 1,
        Outcome::Win(Player::Second) => -1,
        Outcome::Draw => 0,
    })
}

#[test]
fn ataxx_legal_moves_and_results_match_the_rule_text() {
    let mut rng = fastrand::Rng::with_seed(2024);
    let mut positions = 0;
    let mut circular_seen = 0;
    for game in 0..300 {
        let mut ours = ataxx::Position::start();
        let mut naive = NaiveAtaxx::new();
        // Some games jump only (as long as they can) to exercise the repetition rule.
        let jumpy = game % 3 == 0;
        loop {
            let mut pairs: Vec<_> = ours.source_target_pairs().into_iter().map(to_naive).collect();
            pairs.sort();
            let mut expected = naive.legal();
            expected.sort();
            assert_eq!(pairs, expected, "game {game} move {}\n{ours}", naive.moves);
            let geometric = naive.geometric(naive.turn);
            circular_seen += geometric.iter().filter(|&&m| naive.outcome().is_none() && naive.circular(m)).count();
            positions += 1;
            let mut moves = Vec::new();
            ours.legal_moves(&mut moves);
            for &m in &moves {
                assert!(ours.check(m).is_ok());
            }
            if moves.is_empty() {
                // No move for us: either the judge ended the game or only repetitions remain.
                if naive.outcome().is_some() {
                    assert_eq!(outcome_sign(ours.outcome()), naive.outcome());
                } else {
                    assert_eq!(ours.outcome(), Some(Outcome::Win(ours.to_move().other())));
                }
                break;
            }
            assert_eq!(ours.outcome(), None);
            let jumps: Vec<_> = moves.iter().copied().filter(|m| m.is_jump()).collect();
            let mv = if jumpy && !jumps.is_empty() && rng.u8(..10) < 9 {
                jumps[rng.usize(..jumps.len())]
            } else {
                moves[rng.usize(..moves.len())]
            };
            ours.play(mv);
            naive.play(to_naive(mv));
        }
    }
    assert!(positions > 10_000);
    assert!(circular_seen > 0, "the games never met the repetition rule");
}

/// NoGo legality from the rule text with flood fills on an array.
fn naive_nogo_legal(stones: &[[i8; 9]; 9], color: i8, x: usize, y: usize) -> bool {
    if stones[x][y] != 0 {
        return false;
    }
    let mut b = *stones;
    b[x][y] = color;
    let has_liberty = |b: &[[i8; 9]; 9], sx: usize, sy: usize| {
        let c = b[sx][sy];
        let mut seen = [[false; 9]; 9];
        let mut stack = vec![(sx, sy)];
        seen[sx][sy] = true;
        while let Some((px, py)) = stack.pop() {
            for (dx, dy) in [(1i32, 0i32), (-1, 0), (0, 1), (0, -1)] {
                let (nx, ny) = (px as i32 + dx, py as i32 + dy);
                if !(0..9).contains(&nx) || !(0..9).contains(&ny) {
                    continue;
                }
                let (nx, ny) = (nx as usize, ny as usize);
                if b[nx][ny] == 0 {
                    return true;
                }
                if b[nx][ny] == c && !seen[nx][ny] {
                    seen[nx][ny] = true;
                    stack.push((nx, ny));
                }
            }
        }
        false
    };
    if !has_liberty(&b, x, y) {
        return false;
    }
    for (dx, dy) in [(1i32, 0i32), (-1, 0), (0, 1), (0, -1)] {
        let (nx, ny) = (x as i32 + dx, y as i32 + dy);
        if (0..9).contains(&nx) && (0..9).contains(&ny) {
            let (nx, ny) = (nx as usize, ny as usize);
            if b[nx][ny] == -color && !has_liberty(&b, nx, ny) {
                return false;
            }
        }
    }
    true
}

#[test]
fn nogo_legal_points_match_the_rule_text_for_both_sides() {
    let mut rng = fastrand::Rng::with_seed(99);
    for _ in 0..200 {
        let mut ours = nogo::Position::start();
        let mut stones = [[0i8; 9]; 9];
        let mut color = 1i8;
        loop {
            for (player, c) in [(Player::First, 1i8), (Player::Second, -1i8)] {
                let legal = ours.legal_points(player);
                for p in 0..81u8 {
                    let (x, y) = nogo::Bitboard::coords(p);
                    assert_eq!(
                        legal.contains(p),
                        naive_nogo_legal(&stones, c, x as usize, y as usize),
                        "point ({x},{y}) colour {c}\n{ours}"
                    );
                }
            }
            let mut moves = Vec::new();
            ours.legal_moves(&mut moves);
            if moves.is_empty() {
                assert_eq!(ours.outcome(), Some(Outcome::Win(ours.to_move().other())));
                break;
            }
            let p = moves[rng.usize(..moves.len())];
            let (x, y) = nogo::Bitboard::coords(p);
            ours.play(p);
            stones[x as usize][y as usize] = color;
            color = -color;
        }
    }
}

/// Plays a random game through the platform's transcript, and at random points checks that
/// the asked player's history rebuilds to the same position, with the right colour.
fn history_rebuilds_to_the_position_played<G: BotzoneGame + PartialEq>(seed: u64, games: usize) {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut moves = Vec::new();
    let mut checked = 0;
    for _ in 0..games {
        let mut t = Transcript::<G>::new();
        while t.game().outcome().is_none() {
            let m = Match::<G>::from_text(&t.input().to_string()).unwrap();
            assert!(m.game == *t.game(), "rebuilt position differs");
            assert_eq!(m.us, t.asked());
            assert_eq!(m.our_move(), !t.must_pass());
            assert_eq!(m.moves, t.moves());
            checked += 1;
            if t.must_pass() {
                t.answer(None).unwrap();
            } else {
                t.game().legal_moves(&mut moves);
                for &mv in &moves {
                    let mut g = t.game().clone();
                    assert!(g.try_play(mv).is_ok());
                }
                t.answer(Some(moves[rng.usize(..moves.len())])).unwrap();
            }
        }
    }
    assert!(checked > games * 10);
}

#[test]
fn ataxx_history_rebuilds_to_the_position_played() {
    history_rebuilds_to_the_position_played::<ataxx::Position>(1, 10);
}

#[test]
fn nogo_history_rebuilds_to_the_position_played() {
    history_rebuilds_to_the_position_played::<nogo::Position>(2, 10);
}

#[test]
fn pencil_history_with_passes_rebuilds_to_the_position_played() {
    history_rebuilds_to_the_position_played::<dots::Position>(3, 30);
}
