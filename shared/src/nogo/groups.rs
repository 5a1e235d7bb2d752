//! A NoGo board that keeps its groups and their liberties up to date move by move, for
//! playouts. NoGo never captures, so groups only grow and merge, and a stone changes the
//! liberties of its neighbouring groups only: a move costs a few bitboard operations
//! instead of the flood fills [`Position::legal_for_both`] does from scratch.

use super::bitboard::{Bitboard, Point};
use super::Position;
use crate::game::{Game, Player};

#[derive(Debug, Clone, Copy, Default)]
struct Group {
    stones: Bitboard,
    liberties: Bitboard,
    colour: u8,
}

#[derive(Debug, Clone)]
pub struct GroupBoard {
    stones: [Bitboard; 2],
    to_move: Player,
    /// The group id of each stone (meaningless on empty points).
    group_of: [u8; 81],
    /// Groups by id (the id of a group merged into another is no longer used).
    groups: [Group; 81],
    next_id: u8,
    /// The ids of the groups with a single liberty.
    in_atari: u128,
    /// Per colour, the stones of its groups with two or more liberties.
    safe: [Bitboard; 2],
}

impl GroupBoard {
    pub fn new(p: &Position) -> GroupBoard {
        let mut board = GroupBoard {
            stones: [p.stones(Player::First), p.stones(Player::Second)],
            to_move: p.to_move(),
            group_of: [0; 81],
            groups: [Group::default(); 81],
            next_id: 0,
            in_atari: 0,
            safe: [Bitboard::EMPTY; 2],
        };
        let empty = p.empty();
        for colour in 0..2 {
            let mut rest = board.stones[colour];
            while !rest.is_empty() {
                let stones = Bitboard::flood(Bitboard::from_point(rest.first()), board.stones[colour]);
                rest = rest.minus(stones);
                let liberties = stones.neighbours().and(empty);
                board.add_group(Group { stones, liberties, colour: colour as u8 });
            }
        }
        board
    }

    fn add_group(&mut self, group: Group) {
        let id = self.next_id;
        self.next_id += 1;
        for p in group.stones.iter() {
            self.group_of[usize::from(p)] = id;
        }
        self.groups[usize::from(id)] = group;
        self.classify(id);
    }

    /// Files group `id` under safe or in atari after its liberties changed.
    fn classify(&mut self, id: u8) {
        let g = self.groups[usize::from(id)];
        let c = usize::from(g.colour);
        if g.liberties.has_two() {
            self.safe[c] = self.safe[c].or(g.stones);
            self.in_atari &= !(1 << id);
        } else {
            self.safe[c] = self.safe[c].minus(g.stones);
            self.in_atari |= 1 << id;
        }
    }

    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// The same board with `player` to move.
    pub fn with_mover(&self, player: Player) -> GroupBoard {
        GroupBoard { to_move: player, ..self.clone() }
    }

    pub fn empty(&self) -> Bitboard {
        self.stones[0].or(self.stones[1]).not()
    }

    pub fn stones(&self, player: Player) -> Bitboard {
        self.stones[player.index()]
    }

    /// The stones of `player`'s groups with two liberties or more.
    pub fn safe(&self, player: Player) -> Bitboard {
        self.safe[player.index()]
    }

    /// The points each side may play, by the rule of [`Position::legal_for_both`].
    pub fn legal_for_both(&self) -> [Bitboard; 2] {
        let empty = self.empty();
        let mut single = [Bitboard::EMPTY; 2];
        let mut atari = self.in_atari;
        while atari != 0 {
            let g = &self.groups[atari.trailing_zeros() as usize];
            atari &= atari - 1;
            let c = usize::from(g.colour);
            single[c] = single[c].or(g.liberties);
        }
        let open = empty.and(empty.neighbours());
        let legal = |me: usize| empty.and(open.or(self.safe[me].neighbours())).minus(single[1 - me]);
        [legal(0), legal(1)]
    }

    /// Whether `player` may play the empty point `p` (the rule of `legal_for_both`, for one
    /// point): it captures when it takes the last liberty of an opponent group (an
    /// unsafe opponent neighbour, since `p` is then its only liberty), and it has a liberty
    /// when a neighbour is empty or belongs to an own group with another liberty.
    pub fn can_play(&self, p: Point, player: Player) -> bool {
        let (me, them) = (player.index(), player.other().index());
        let around = Bitboard::around(p);
        let captures = !around.and(self.stones[them]).minus(self.safe[them]).is_empty();
        let breathes =
            !around.minus(self.stones[0].or(self.stones[1])).is_empty() || !around.and(self.safe[me]).is_empty();
        !captures && breathes
    }

    /// Places a stone of the side to move on `p`, which must be legal.
    pub fn play(&mut self, p: Point) {
        let me = self.to_move.index();
        let stone = Bitboard::from_point(p);
        let around = Bitboard::around(p);
        let empty = self.empty();
        // The new stone joins the largest neighbouring group of its colour (so that the
        // fewest stones change id); the other neighbouring groups of its colour merge in.
        let (mut own, mut owns) = ([0u8; 4], 0);
        let mut occupied = around.minus(empty);
        while !occupied.is_empty() {
            let q = occupied.first();
            occupied = occupied.minus(Bitboard::from_point(q));
            let id = self.group_of[usize::from(q)];
            let g = &mut self.groups[usize::from(id)];
            if usize::from(g.colour) == me {
                if !own[..owns].contains(&id) {
                    own[owns] = id;
                    owns += 1;
                }
            } else if g.liberties.contains(p) {
                g.liberties = g.liberties.minus(stone);
                self.classify(id);
            }
        }
        self.stones[me] = self.stones[me].with(p);
        let target = match owns {
            0 => {
                self.add_group(Group { stones: stone, liberties: around.and(empty), colour: me as u8 });
                self.to_move = self.to_move.other();
                return;
            }
            // Most moves touch one own group at most: no sizes to compare.
            1 => own[0],
            _ => *own[..owns].iter().max_by_key(|&&id| self.groups[usize::from(id)].stones.count()).expect("owns > 1"),
        };
        let mut merged = self.groups[usize::from(target)];
        merged.stones = merged.stones.with(p);
        merged.liberties = merged.liberties.or(around.and(empty));
        self.group_of[usize::from(p)] = target;
        for &id in own[..owns].iter().filter(|&&id| id != target) {
            let g = self.groups[usize::from(id)];
            merged.stones = merged.stones.or(g.stones);
            merged.liberties = merged.liberties.or(g.liberties);
            for q in g.stones.iter() {
                self.group_of[usize::from(q)] = target;
            }
            self.in_atari &= !(1 << id);
        }
        merged.liberties = merged.liberties.minus(stone);
        self.groups[usize::from(target)] = merged;
        self.classify(target);
        self.to_move = self.to_move.other();
    }
}

/// Picks the `k`-th point (lowest first) of a set with more than `k` points.
pub fn nth_point(set: Bitboard, k: usize) -> Point {
    let low = set.0 as u64;
    let low_count = low.count_ones() as usize;
    let (mut word, mut k, offset) = if k < low_count { (low, k, 0) } else { ((set.0 >> 64) as u64, k - low_count, 64) };
    while k > 0 {
        word &= word - 1;
        k -= 1;
    }
    (word.trailing_zeros() + offset) as Point
}

/// A random point of a non-empty set.
pub fn random_point(set: Bitboard, rng: &mut fastrand::Rng) -> Point {
    nth_point(set, rng.usize(..set.count() as usize))
}

/// Uniformly random legal moves to the end; the first player's reward (1 or 0).
pub fn uniform_playout(board: &mut GroupBoard, rng: &mut fastrand::Rng, played: &mut Vec<(Player, Point)>) -> f64 {
    playout(board, rng, played, |_, mine, _| mine)
}

/// Where both sides may play, while such points exist; then the points only the mover
/// may use (its own eyes: filling them early wastes them).
fn both_sides_first(mine: Bitboard, theirs: Bitboard) -> Bitboard {
    let shared = mine.and(theirs);
    if shared.is_empty() {
        mine
    } else {
        shared
    }
}

/// Plays [`both_sides_first`], but a move that leaves the opponent without a legal point
/// is played when there is one, and an opponent's point that would do that to the mover
/// is taken first (decisive and anti-decisive moves).
pub fn decisive_playout(board: &mut GroupBoard, rng: &mut fastrand::Rng, played: &mut Vec<(Player, Point)>) -> f64 {
    playout(board, rng, played, |board, mine, theirs| {
        let me = board.to_move();
        if let Some(p) = winning_point(board, me, mine, theirs) {
            return Bitboard::from_point(p);
        }
        if let Some(q) = winning_point(board, me.other(), theirs, mine) {
            if mine.contains(q) {
                return Bitboard::from_point(q);
            }
        }
        both_sides_first(mine, theirs)
    })
}

/// What the shared-points playout does with a drawn point that the mover may play but the
/// opponent no longer may.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SharedRule {
    /// Plays it at once (HaHaNoGo's rule). The mover spends a point the opponent could never
    /// take, as weak play would; searches judge better with it, more so the longer they run
    /// (docs/lab/nogo-search.md).
    WhileMoverMay,
    /// Keeps it for the mover's last phase: shared points are played only while both sides
    /// may play them.
    WhileBothMay,
}

/// The playout of the strong NoGo programs (HappyNoGo's, as HaHaNoGo runs it), with the
/// legality of one point checked at a time instead of the whole board's after every move:
/// random points both sides could play when the playout began, while there are any (one
/// found playable by the opponent only is set aside for the opponent; one found playable by
/// the mover only goes by `rule`); then each side fills the points only it may play, and
/// the first without one loses. A point's legality never comes back once lost (stones only
/// add up and NoGo never captures), so what was set aside stays right.
pub fn shared_points_playout(
    board: &mut GroupBoard,
    rng: &mut fastrand::Rng,
    played: &mut Vec<(Player, Point)>,
    rule: SharedRule,
) -> f64 {
    let legal = board.legal_for_both();
    shared_points_playout_from(board, legal, rng, played, rule)
}

/// [`shared_points_playout`] from `legal`, the board's `legal_for_both` already computed
/// (the count at the leaf reads the same sets).
pub fn shared_points_playout_from(
    board: &mut GroupBoard,
    legal: [Bitboard; 2],
    rng: &mut fastrand::Rng,
    played: &mut Vec<(Player, Point)>,
    rule: SharedRule,
) -> f64 {
    let shared_set = legal[0].and(legal[1]);
    let mut shared = PointList::from(shared_set);
    let mut own = [PointList::from(legal[0].minus(shared_set)), PointList::from(legal[1].minus(shared_set))];
    while !shared.is_empty() {
        let p = shared.take_random(rng);
        let me = board.to_move();
        // The opponent's legality is asked only where the rule needs it.
        let mine = board.can_play(p, me);
        if mine && (rule == SharedRule::WhileMoverMay || board.can_play(p, me.other())) {
            played.push((me, p));
            board.play(p);
        } else if mine {
            own[me.index()].push(p);
        } else if board.can_play(p, me.other()) {
            own[me.other().index()].push(p);
        }
    }
    loop {
        let me = board.to_move();
        let mine = &mut own[me.index()];
        loop {
            if mine.is_empty() {
                return if me == Player::First { 0.0 } else { 1.0 };
            }
            let p = mine.take_random(rng);
            if board.can_play(p, me) {
                played.push((me, p));
                board.play(p);
                break;
            }
        }
    }
}

/// A small unordered set of points drawn at random.
struct PointList {
    points: [Point; 81],
    len: usize,
}

impl PointList {
    fn from(set: Bitboard) -> PointList {
        let mut list = PointList { points: [0; 81], len: 0 };
        for p in set.iter() {
            list.push(p);
        }
        list
    }

    fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn push(&mut self, p: Point) {
        self.points[self.len] = p;
        self.len += 1;
    }

    /// Removes and returns a random point of a non-empty list.
    fn take_random(&mut self, rng: &mut fastrand::Rng) -> Point {
        let i = rng.usize(..self.len);
        let p = self.points[i];
        self.len -= 1;
        self.points[i] = self.points[self.len];
        p
    }
}

/// How few legal points the opponent must have before winning moves are looked for: a
/// stone takes legal points from the opponent only near itself and its own group.
const FEW_POINTS: u32 = 3;

/// A point of `mine` after which `player`'s opponent (with legal points `theirs`) has
/// none left, were `player` to move; among the points within two steps of `theirs`.
fn winning_point(board: &GroupBoard, player: Player, mine: Bitboard, theirs: Bitboard) -> Option<Point> {
    if theirs.count() > FEW_POINTS {
        return None;
    }
    let near = theirs.or(theirs.neighbours());
    let candidates = mine.and(near.or(near.neighbours()));
    candidates.iter().find(|&p| {
        let mut after = board.with_mover(player);
        after.play(p);
        after.legal_for_both()[player.other().index()].is_empty()
    })
}

/// Plays random points of `choose(mover's legal points, opponent's)` until the side to
/// move has no legal point and so loses.
fn playout(
    board: &mut GroupBoard,
    rng: &mut fastrand::Rng,
    played: &mut Vec<(Player, Point)>,
    choose: impl Fn(&GroupBoard, Bitboard, Bitboard) -> Bitboard,
) -> f64 {
    loop {
        let me = board.to_move();
        let legal = board.legal_for_both();
        let mine = legal[me.index()];
        if mine.is_empty() {
            return if me == Player::First { 0.0 } else { 1.0 };
        }
        let p = random_point(choose(board, mine, legal[me.other().index()]), rng);
        played.push((me, p));
        board.play(p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_board_agrees_with_the_rules_along_random_games() {
        let mut rng = fastrand::Rng::with_seed(8);
        let mut moves = Vec::new();
        for game in 0..200 {
            let mut p = Position::start();
            let mut board = GroupBoard::new(&p);
            loop {
                assert_eq!(board.legal_for_both(), p.legal_for_both(), "game {game}\n{p}");
                // Rebuilding from the position gives the same answer as updating.
                assert_eq!(GroupBoard::new(&p).legal_for_both(), p.legal_for_both());
                p.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.usize(..moves.len())];
                p.play(m);
                board.play(m);
            }
        }
    }

    #[test]
    fn can_play_agrees_with_the_whole_board_legality() {
        let mut rng = fastrand::Rng::with_seed(11);
        for _ in 0..200 {
            let mut board = GroupBoard::new(&Position::start());
            loop {
                let legal = board.legal_for_both();
                for player in [Player::First, Player::Second] {
                    for p in board.empty().iter() {
                        assert_eq!(board.can_play(p, player), legal[player.index()].contains(p), "point {p}");
                    }
                }
                let mine = legal[board.to_move().index()];
                if mine.is_empty() {
                    break;
                }
                board.play(random_point(mine, &mut rng));
            }
        }
    }

    #[test]
    fn a_shared_points_playout_ends_when_the_loser_has_no_legal_point() {
        for rule in [SharedRule::WhileMoverMay, SharedRule::WhileBothMay] {
            shared_points_playouts_end_by_the_rules(rule);
        }
    }

    fn shared_points_playouts_end_by_the_rules(rule: SharedRule) {
        let mut rng = fastrand::Rng::with_seed(12);
        let mut played = Vec::new();
        let mut first_wins = 0;
        for _ in 0..500 {
            let mut board = GroupBoard::new(&Position::start());
            played.clear();
            let reward = shared_points_playout(&mut board, &mut rng, &mut played, rule);
            // Replaying the moves by the rules reaches the same end: every move legal,
            // the side to move then without a point, and the reward the other side's.
            let mut p = Position::start();
            for &(player, point) in &played {
                assert_eq!(p.to_move(), player);
                assert!(p.legal_for_both()[player.index()].contains(point));
                p.play(point);
            }
            let loser = p.to_move();
            assert!(p.legal_for_both()[loser.index()].is_empty());
            assert_eq!(reward, if loser == Player::First { 0.0 } else { 1.0 });
            first_wins += reward as u32;
        }
        assert!((150..350).contains(&first_wins), "{rule:?}: {first_wins} of 500");
    }

    #[test]
    fn a_winning_point_leaves_the_opponent_without_a_move() {
        // Random games until the side to move has a winning point: play it and check.
        let mut rng = fastrand::Rng::with_seed(4);
        let mut found = 0;
        for _ in 0..300 {
            let mut board = GroupBoard::new(&Position::start());
            loop {
                let me = board.to_move();
                let legal = board.legal_for_both();
                let (mine, theirs) = (legal[me.index()], legal[me.other().index()]);
                if mine.is_empty() {
                    break;
                }
                if let Some(p) = winning_point(&board, me, mine, theirs) {
                    assert!(mine.contains(p));
                    board.play(p);
                    assert!(board.legal_for_both()[me.other().index()].is_empty());
                    found += 1;
                    break;
                }
                board.play(random_point(mine, &mut rng));
            }
        }
        assert!(found > 100, "winning points found in {found} games");
    }

    #[test]
    fn nth_point_counts_across_both_words() {
        let set = Bitboard(1 << 3 | 1 << 63 | 1 << 64 | 1 << 80);
        let picked: Vec<Point> = (0..4).map(|k| nth_point(set, k)).collect();
        assert_eq!(picked, vec![3, 63, 64, 80]);
    }
}
