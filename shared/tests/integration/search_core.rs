//! The search core against plain references: alpha-beta equals exhaustive minimax on
//! small positions of each game; MCTS-Solver proves forced wins; tree reuse and early stop
//! behave.

use botzone_games::ataxx::{self, Board};
use botzone_games::dots;
use botzone_games::engines::ataxx::{ab_config, AtaxxEval, ENDGAME_EMPTIES};
use botzone_games::engines::dots::BoxDifference;
use botzone_games::engines::Without;
use botzone_games::game::{forces_win, Game, Outcome, Player};
use botzone_games::nogo;
use botzone_games::search::alphabeta::{AlphaBeta, AlphaBetaConfig, Aspiration, Evaluator, WIN};
use botzone_games::search::mcts::{Mcts, MctsConfig, RandomPlayouts, Rave};
use botzone_games::search::{Budget, Engine};

/// Plain negamax over the whole game, scoring as alpha-beta does.
fn minimax<G: Game, E: Evaluator<G>>(g: &G, e: &E, ply: i32) -> i32 {
    if let Some(o) = g.outcome() {
        let s = e.terminal(g, o);
        return if s >= WIN - 1000 {
            s - ply
        } else if s <= -WIN + 1000 {
            s + ply
        } else {
            s
        };
    }
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| {
            let mut c = g.clone();
            c.play(mv);
            let v = minimax(&c, e, ply + 1);
            if c.to_move() == g.to_move() {
                v
            } else {
                -v
            }
        })
        .max()
        .expect("a running game has moves")
}

/// Exact configurations (no pruning that trades accuracy for speed) with aspiration
/// windows and either kind of history, which change only the order of the search; the
/// one-point window fails high or low at nearly every depth, so its re-searches are
/// exercised.
fn exact() -> [AlphaBetaConfig; 3] {
    let window = |delta| Some(Aspiration { min_depth: 3, delta, reduce_on_fail_high: false });
    let config = AlphaBetaConfig { aspiration: window(50), ..AlphaBetaConfig::EXACT };
    [config, AlphaBetaConfig { history_malus: true, ..config }, AlphaBetaConfig { aspiration: window(1), ..config }]
}

fn check_alphabeta_equals_minimax<G: Game, E: Evaluator<G>>(positions: &[G], make: impl Fn() -> E) {
    for g in positions {
        let expected = minimax(g, &make(), 0);
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        for config in exact() {
            let mut ab = AlphaBeta::new(config, make());
            let (score, best, _) = ab.iterate(g, &moves, &Budget::iterations(u64::MAX));
            assert_eq!(score, expected, "alpha-beta value differs from minimax");
            // The chosen move achieves the value.
            let mut after = g.clone();
            after.play(best);
            let v = minimax(&after, &make(), 1);
            assert_eq!(if after.to_move() == g.to_move() { v } else { -v }, expected);
        }
    }
}

/// Random positions `plies` moves into seeded random games that are still running.
fn random_positions<G: Game>(start: G, plies: usize, count: usize, seed: u64) -> Vec<G> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < count {
        let mut g = start.clone();
        for _ in 0..plies {
            g.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            g.play(moves[rng.usize(..moves.len())]);
        }
        if g.outcome().is_none() {
            out.push(g);
        }
    }
    out
}

struct NoEval;
impl Evaluator<nogo::Position> for NoEval {
    fn evaluate(&self, _: &nogo::Position) -> i32 {
        0
    }
    fn hash(&self, p: &nogo::Position) -> u64 {
        let a = p.stones(Player::First).0;
        let b = p.stones(Player::Second).0;
        (a as u64 ^ (a >> 64) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ (b as u64 ^ (b >> 64) as u64).wrapping_mul(0xc2b2_ae3d_27d4_eb4f).rotate_left(29)
    }
}

#[test]
fn alphabeta_equals_minimax_on_pencil_endgames() {
    let positions = random_positions(dots::Position::start(), 51, 40, 1);
    check_alphabeta_equals_minimax(&positions, || BoxDifference);
}

/// Running NoGo positions from seeded random games where at most `points` moves remain
/// playable for the two sides together.
fn small_nogo_positions(count: usize, points: u32, seed: u64) -> Vec<nogo::Position> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < count {
        let mut g = nogo::Position::start();
        loop {
            g.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let l = g.legal_for_both();
            if l[0].count() + l[1].count() <= points {
                out.push(g);
                break;
            }
            g.play(moves[rng.usize(..moves.len())]);
        }
    }
    out
}

#[test]
fn alphabeta_equals_minimax_on_nogo_endgames() {
    check_alphabeta_equals_minimax(&small_nogo_positions(30, 7, 2), || NoEval);
}

/// A window that fails towards a won or lost score widens geometrically: a one-point
/// window once widened by a point a search and took thousands of searches (and seconds)
/// to reach a win on these positions, where a wide window takes a few.
#[test]
fn a_one_point_window_reaches_a_forced_result_in_few_searches() {
    let [wide, _, narrow] = exact();
    for g in small_nogo_positions(30, 7, 2) {
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let nodes = |config| {
            let mut ab = AlphaBeta::new(config, NoEval);
            ab.iterate(&g, &moves, &Budget::iterations(u64::MAX));
            ab.nodes()
        };
        let (wide, narrow) = (nodes(wide), nodes(narrow));
        assert!(narrow <= 50 * wide, "{narrow} nodes with a one-point window, {wide} with a wide one");
    }
}

#[test]
fn alphabeta_equals_minimax_on_ataxx_positions_near_the_move_cap() {
    // Three moves before the cap the whole tree is small; the evaluation decides nothing.
    let mut positions = Vec::new();
    let mut rng = fastrand::Rng::with_seed(3);
    while positions.len() < 30 {
        let mut first = ataxx::Bitboard::EMPTY;
        let mut second = ataxx::Bitboard::EMPTY;
        for sq in 0..49u8 {
            match rng.u8(..10) {
                0..=2 => first = first.with(sq),
                3..=5 => second = second.with(sq),
                _ => {}
            }
        }
        let b = Board::new(first, second, Player::First, ataxx::MOVE_CAP - 2);
        if b.outcome().is_none() {
            positions.push(b);
        }
    }
    check_alphabeta_equals_minimax(&positions, AtaxxEval::default);
}

/// MCTS with the solver on: the answer must be a move that wins by exhaustive search.
fn solver_finds_forced_win<G: Game>(candidates: Vec<G>, need: usize) {
    solver_with_config_finds_forced_win(MctsConfig { solver: true, ..MctsConfig::UCT }, candidates, need)
}

fn solver_with_config_finds_forced_win<G: Game>(config: MctsConfig, candidates: Vec<G>, need: usize) {
    let mut found = 0;
    for g in candidates {
        // Forced win for the side to move?
        let win = |p: &G| minimax(p, &Terminal, 0) > 0;
        if !win(&g) {
            continue;
        }
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let mut mcts = Mcts::new(config, RandomPlayouts, 7);
        let result = mcts.search(&g, &moves, &Budget::iterations(200_000));
        assert!(result.summary.contains("proven=win"), "{}", result.summary);
        let mut after = g.clone();
        after.play(result.best);
        let v = minimax(&after, &Terminal, 1);
        assert!(if after.to_move() == g.to_move() { v > 0 } else { v < 0 }, "the solver's move does not win");
        found += 1;
        if found == need {
            return;
        }
    }
    panic!("only {found} forced wins among the candidates");
}

/// Win/loss only.
struct Terminal;
impl<G: Game> Evaluator<G> for Terminal {
    fn evaluate(&self, _: &G) -> i32 {
        0
    }
    fn terminal(&self, g: &G, o: Outcome) -> i32 {
        match o {
            Outcome::Draw => 0,
            Outcome::Win(p) if p == g.to_move() => WIN,
            Outcome::Win(_) => -WIN,
        }
    }
    fn hash(&self, _: &G) -> u64 {
        0
    }
}

#[test]
fn solver_proves_forced_wins_in_each_game() {
    solver_finds_forced_win(random_positions(dots::Position::start(), 52, 60, 11), 3);
    solver_finds_forced_win(small_nogo_positions(60, 7, 12), 3);
    let can_block =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/ataxx/can_block_opponent.json"))
            .unwrap();
    let m = botzone_games::botzone::Match::<ataxx::Position>::from_text(&can_block).unwrap();
    // Jumps could make the game long: three moves before the cap the tree is small, and
    // the blocking move still wins at once.
    let b = m.game.board();
    let near_cap = Board::new(b.pieces(Player::First), b.pieces(Player::Second), b.to_move(), ataxx::MOVE_CAP - 3);
    solver_finds_forced_win(vec![near_cap], 1);
}

#[test]
fn the_solver_proves_forced_wins_under_either_rave_mix() {
    // Count-weighted RAVE never picks unvisited children first: every move must still be
    // reached for a loss to be proven.
    for rave in [Rave::Schedule { k: 300.0 }, Rave::Counts { prior: 20.0 }] {
        let config = MctsConfig { solver: true, rave: Some(rave), exploration: 0.25, ..MctsConfig::UCT };
        solver_with_config_finds_forced_win(config, small_nogo_positions(60, 7, 12), 3);
        solver_with_config_finds_forced_win(config, random_positions(dots::Position::start(), 52, 60, 11), 3);
    }
}

#[test]
fn tree_reuse_keeps_the_subtree_of_the_position_reached() {
    let start = nogo::Position::start();
    let mut moves = Vec::new();
    start.legal_moves(&mut moves);
    let config = MctsConfig { reuse_tree: true, ..MctsConfig::UCT };
    let mut mcts = Mcts::new(config, RandomPlayouts, 1);
    mcts.set_history(&[]);
    let first = mcts.search(&start, &moves, &Budget::iterations(20_000));
    // We play our move, the opponent answers; the new root's subtree is kept.
    let mut next = start;
    next.play(first.best);
    next.legal_moves(&mut moves);
    let reply = moves[0];
    next.play(reply);
    next.legal_moves(&mut moves);
    mcts.set_history(&[first.best, reply]);
    let second = mcts.search(&next, &moves, &Budget::iterations(100));
    assert!(!second.summary.contains("reused=0"), "{}", second.summary);
    // A history that does not continue the old one starts afresh.
    mcts.set_history(&[reply]);
    let mut other = start;
    other.play(reply);
    other.legal_moves(&mut moves);
    let third = mcts.search(&other, &moves, &Budget::iterations(100));
    assert!(third.summary.contains("reused=0"), "{}", third.summary);
}

#[test]
fn early_stop_ends_a_search_with_one_obvious_move() {
    // A Pencil position where one move takes a box and everything else gives boxes away
    // would need knowledge; instead: an iteration cap leaves no room for the runner-up.
    let g = dots::Position::start();
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let config = MctsConfig { early_stop: true, ..MctsConfig::UCT };
    let mut mcts = Mcts::new(config, RandomPlayouts, 3);
    let r = mcts.search(&g, &moves[..2], &Budget::iterations(100_000));
    let iters: u64 = r.summary.split_whitespace().find_map(|w| w.strip_prefix("iters=")).unwrap().parse().unwrap();
    assert!(iters < 100_000, "{}", r.summary);
}

/// NoGo's default engine hands late positions to its proof search: wherever plain
/// minimax says the side to move wins, the engine's move wins too (and says it was proven).
#[test]
fn nogo_engine_plays_proven_wins_late_in_the_game() {
    let make = botzone_games::engines::nogo::registry().engines[0].make;
    let mut won = 0;
    for g in small_nogo_positions(40, 12, 3) {
        if minimax(&g, &NoEval, 0) < WIN / 2 {
            continue;
        }
        won += 1;
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let result = make(1, &Default::default()).search(&g, &moves, &Budget::iterations(20_000));
        assert!(result.summary.starts_with("solver: win"), "{}\n{g}", result.summary);
        let mut after = g;
        after.play(result.best);
        assert!(minimax(&after, &NoEval, 0) <= -WIN / 2, "the move does not win\n{g}");
    }
    assert!(won >= 10, "only {won} won positions");
}

/// The `ab` engine's alpha-beta on endgames of 3-8 empty squares, as it plays (forward
/// pruning on) and full-width there: every win it claims is real and exactly as near as
/// it says (won scores are kept in the table relative to the node, not the root).
#[test]
fn ataxx_alphabeta_claims_only_real_wins_at_their_distance() {
    let mut rng = fastrand::Rng::with_seed(7);
    let (mut tried, mut checked) = (0, 0);
    while tried < 300 {
        let empties = 3 + rng.usize(..6);
        let mut squares: Vec<u8> = (0..49).collect();
        rng.shuffle(&mut squares);
        let (mut first, mut second) = (ataxx::Bitboard::EMPTY, ataxx::Bitboard::EMPTY);
        for &sq in &squares[empties..] {
            if rng.bool() {
                first = first.with(sq);
            } else {
                second = second.with(sq);
            }
        }
        let b = Board::new(first, second, Player::First, 100);
        if b.outcome().is_some() {
            continue;
        }
        tried += 1;
        // The engine as it plays (forward pruning on in the endgame too), and searching the
        // endgame full-width (`--without endgame-pruning`).
        if check_claimed_win(&b, AtaxxEval::default()) {
            checked += 1;
        }
        if check_claimed_win(&b, AtaxxEval { endgame_empties: Some(ENDGAME_EMPTIES), ..AtaxxEval::default() }) {
            checked += 1;
        }
    }
    assert!(checked >= 60, "only {checked} claimed wins checked");
}

/// Searches `b` with the `ab` engine's configuration and `eval`; a claimed win of at most
/// 9 plies must be a forced win within that many. Returns whether a win was claimed and
/// checked.
fn check_claimed_win(b: &Board, eval: AtaxxEval) -> bool {
    let mut moves = Vec::new();
    b.legal_moves(&mut moves);
    let config = AlphaBetaConfig { tt_bytes: 1 << 20, ..ab_config(&Without::default()) };
    let (score, best, _) = AlphaBeta::new(config, eval).iterate(b, &moves, &Budget::iterations(200_000));
    let plies = WIN - score;
    if plies > 9 {
        return false;
    }
    let mut after = *b;
    after.play(best);
    assert!(forces_win(&after, b.to_move(), (plies - 1) as u32), "claimed a win in {plies} plies\n{b}");
    true
}

/// A position where the table once made a win in 7 read as a win in 5: a score found at
/// one ply was reused at another without converting the distance. (The search as it plays,
/// forward pruning on, finds the win in 9 plies with the 256-unit network, in 7 with the
/// 128-unit one: claims up to 9 plies are checked.)
#[test]
fn ataxx_alphabeta_reads_win_distances_from_the_table_correctly() {
    let rows = ["OX.XOXO", "OOOOOXO", "XXXXXOO", "XXXOOOX", "OXXXOXX", "OOXXOOX", "OO.X.XX"];
    let (mut first, mut second) = (ataxx::Bitboard::EMPTY, ataxx::Bitboard::EMPTY);
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            let sq = ataxx::Bitboard::square(x as u8, y as u8);
            match c {
                'X' => first = first.with(sq),
                'O' => second = second.with(sq),
                _ => {}
            }
        }
    }
    let b = Board::new(first, second, Player::First, 100);
    assert!(check_claimed_win(&b, AtaxxEval::default()), "no win claimed\n{b}");
}

/// The `ab` evaluator's move order: clones first, then the pieces turned, so that a clone
/// turning nothing ranks with a jump turning two and above a jump turning one.
#[test]
fn ataxx_search_orders_clones_before_jumps_that_turn_fewer_than_two() {
    let sq = ataxx::Bitboard::square;
    // First in a corner, Second on the fourth file: clones turn nothing, jumps 0, 1 or 2.
    let first = ataxx::Bitboard::EMPTY.with(sq(0, 0));
    let second = ataxx::Bitboard::EMPTY.with(sq(3, 0)).with(sq(3, 1));
    let b = Board::new(first, second, Player::First, 10);
    let mut moves = Vec::new();
    b.legal_moves(&mut moves);
    let eval = AtaxxEval::default();
    let rank = |flips: u32, jump: bool| {
        let mv = *moves.iter().find(|&&m| b.flips(m) == flips && m.is_jump() == jump).expect("such a move");
        eval.order(&b, mv)
    };
    assert!(rank(0, false) > rank(1, true), "a clone must come before a jump turning one");
    assert_eq!(rank(0, false), rank(2, true), "a clone ranks with a jump turning two");
    assert!(rank(0, false) > rank(0, true));
}

/// The Ataxx network values a child from its parent's hidden layer exactly as afresh,
/// in the order a search asks: a node from its parent, then that node's leaves from it,
/// then the node's sibling from the parent again (the two kept parents in turn).
#[test]
fn ataxx_children_valued_from_their_parent_equal_their_plain_values() {
    let eval = AtaxxEval::default();
    let mut moves = Vec::new();
    let mut leaves = Vec::new();
    for parent in random_positions(*ataxx::Position::start().board(), 30, 40, 11) {
        if parent.outcome().is_some() {
            continue;
        }
        parent.legal_moves(&mut moves);
        for &mv in moves.iter().take(4) {
            let mut node = parent;
            node.play(mv);
            assert_eq!(eval.evaluate_child(&parent, &node), eval.evaluate(&node));
            if node.outcome().is_some() {
                continue;
            }
            node.legal_moves(&mut leaves);
            for &leaf_move in leaves.iter().take(6) {
                let mut leaf = node;
                leaf.play(leaf_move);
                assert_eq!(eval.evaluate_child(&node, &leaf), eval.evaluate(&leaf));
            }
        }
    }
}
