//! How far logged NoGo positions split into independent regions (`experiments
//! nogo-regions`): issue #105's first lead asks for the board split into regions whose
//! values add, which needs the regions to exist where games are decided.
//!
//! Two empty points interact when they touch, or when both are liberties of one group
//! (a stone on one changes that group's liberties, and so what may be played on the
//! other). A point neither side may play stays so for the rest of the game, so it links
//! nothing, and a group with such a point among its liberties can never lose its last
//! one: its other liberties do not interact through it. What is left are the playable
//! points, in classes that no move ever joins (a stone joins only groups that touch it,
//! whose liberties are all in its own class), so each class is a game of its own and the
//! position is their sum.

use crate::logged::logged_nogo_positions;
use botzone_games::game::Player;
use botzone_games::nogo::{Bitboard, Position};

/// One independent region: its playable points, and how many of them both sides may play
/// (none: a count of moves for one side or both, no fight).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Region {
    pub points: Bitboard,
    pub shared: u32,
}

/// The position's independent regions of playable points, largest first.
pub fn independent_regions(p: &Position) -> Vec<Region> {
    let [black, white] = p.legal_for_both();
    let empty = p.empty();
    let playable = black.or(white);
    let dead = empty.minus(playable);
    // The playable liberties of each group that could still lose its last liberty.
    let mut links = Vec::new();
    for player in [Player::First, Player::Second] {
        let mut stones = p.stones(player);
        while !stones.is_empty() {
            let group = Bitboard::flood(Bitboard::from_point(stones.first()), stones);
            stones = stones.minus(group);
            let liberties = group.neighbours().and(empty);
            if liberties.and(dead).is_empty() && liberties.has_two() {
                links.push(liberties.and(playable));
            }
        }
    }
    let mut regions = Vec::new();
    let mut left = playable;
    while !left.is_empty() {
        let mut region = Bitboard::flood(Bitboard::from_point(left.first()), playable);
        loop {
            let joined = links.iter().filter(|l| !l.and(region).is_empty()).fold(region, |r, l| r.or(*l));
            let grown = Bitboard::flood(joined, playable);
            if grown == region {
                break;
            }
            region = grown;
        }
        left = left.minus(region);
        regions.push(Region { points: region, shared: region.and(black).and(white).count() });
    }
    regions.sort_by_key(|r| std::cmp::Reverse(r.points.count()));
    regions
}

/// `experiments nogo-regions`: for the positions after each count of plies of a log, the
/// regions they split into.
pub fn nogo_regions(logs: &[std::path::PathBuf], plies: &[usize]) -> Result<(), String> {
    println!(
        "ply: positions; legal points (both sides); playable points; regions; regions with shared points; \
         positions with two or more such; largest region's share of the playable points"
    );
    for &ply in plies {
        let mut positions = Vec::new();
        for log in logs {
            positions.extend(logged_nogo_positions(log, ply)?);
        }
        let n = positions.len().max(1) as f64;
        let (mut legal, mut playable, mut regions, mut fights, mut split, mut largest) = (0.0, 0.0, 0.0, 0.0, 0, 0.0);
        for p in &positions {
            let [b, w] = p.legal_for_both();
            let found = independent_regions(p);
            let total = b.or(w).count().max(1);
            let fighting = found.iter().filter(|r| r.shared > 0).count();
            legal += f64::from(b.count() + w.count());
            playable += f64::from(b.or(w).count());
            regions += found.len() as f64;
            fights += fighting as f64;
            split += usize::from(fighting >= 2);
            largest += found.first().map_or(0.0, |r| f64::from(r.points.count()) / f64::from(total));
        }
        println!(
            "{ply}: {}; {:.1}; {:.1}; {:.2}; {:.2}; {split}; {:.2}",
            positions.len(),
            legal / n,
            playable / n,
            regions / n,
            fights / n,
            largest / n
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use botzone_games::game::Game;

    fn region_of(regions: &[Region], point: u8) -> Option<usize> {
        regions.iter().position(|r| r.points.contains(point))
    }

    /// The definition checked against the rules: along random games, a move changes what
    /// either side may play only inside its own region, and regions never join.
    #[test]
    fn a_move_changes_legality_only_in_its_own_region() {
        let mut rng = fastrand::Rng::with_seed(105);
        let (mut checked, mut split_positions) = (0, 0);
        let mut moves = Vec::new();
        for _ in 0..300 {
            let mut p = Position::start();
            loop {
                p.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let regions = independent_regions(&p);
                let playable = p.legal_for_both();
                assert_eq!(
                    regions.iter().fold(Bitboard::EMPTY, |a, r| a.or(r.points)),
                    playable[0].or(playable[1]),
                    "the regions cover the playable points\n{p}"
                );
                split_positions += usize::from(regions.iter().filter(|r| r.shared > 0).count() >= 2);
                let m = moves[rng.usize(..moves.len())];
                let home = region_of(&regions, m).expect("a legal move is playable");
                let mut next = p;
                next.play(m);
                let after = next.legal_for_both();
                for (k, r) in regions.iter().enumerate() {
                    if k == home {
                        continue;
                    }
                    for side in 0..2 {
                        assert_eq!(playable[side].and(r.points), after[side].and(r.points), "move {m} in\n{p}");
                    }
                    checked += 1;
                }
                // No point outside the regions becomes playable.
                assert!(after[0].or(after[1]).minus(playable[0].or(playable[1])).is_empty());
                p = next;
            }
        }
        // Not vacuous: many regions checked, and positions with two fights among them.
        assert!(checked > 1000, "{checked} regions checked");
        assert!(split_positions > 50, "{split_positions} positions with two regions of shared points");
    }
}
