//! The top of a search tree carried to the next turn as bytes, for a bot whose process
//! does not stay between turns (Botzone's `data`, at most 100 KB): the statistics of the
//! most visited nodes under the move the bot plays, so that the next search, after the
//! opponent's reply, starts where the tree reuse of a kept-running bot would, only with
//! fewer nodes.
//!
//! Layout (little-endian), after the history header of [`carry_header`]: a version byte;
//! the root's record; then blocks, each a parent (its index in the order nodes were
//! written) and all of that parent's children. A node's record is its move's index (2
//! bytes; none for the root), its proof (1 byte), visits and reward (4 + 4), and AMAF
//! visits and reward (4 + 4). Blocks are chosen best first: the most visited node whose
//! children are not yet written, while they fit. A node is written with all its children
//! or none, since a search expects a node's children to be every move it would try there.

use super::{Amaf, Mcts, Node, Policy, Proof, Tree};
use crate::game::Game;
use crate::search::{carry_header, CarriedReader};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

const VERSION: u8 = 1;
const CHILD_BYTES: usize = 2 + 1 + 16;
const BLOCK_BYTES: usize = 4 + 2;

fn proof_byte(p: Proof) -> u8 {
    match p {
        Proof::Unknown => 0,
        Proof::Win => 1,
        Proof::Loss => 2,
    }
}

fn put_stats(out: &mut Vec<u8>, node: &Node, amaf: &Amaf) {
    out.push(proof_byte(node.proof));
    out.extend_from_slice(&node.visits.to_le_bytes());
    out.extend_from_slice(&node.reward.to_le_bytes());
    out.extend_from_slice(&amaf.visits.to_le_bytes());
    out.extend_from_slice(&amaf.reward.to_le_bytes());
}

impl<G: Game, P: Policy<G>> Mcts<G, P> {
    /// The top of the kept tree's subtree after `played` (the move the bot answers with:
    /// the next turn starts two plies below the root, under it) in at most `max_bytes`;
    /// `None` without a kept tree (the engine keeps none, or has not searched this turn),
    /// without that subtree, or without room for its first children.
    pub(super) fn carry_tree(&self, played: G::Move, max_bytes: usize) -> Option<Vec<u8>> {
        let (history, tree) = self.saved.as_ref()?;
        if history != &self.history {
            return None;
        }
        let top = tree.nodes[0].children().find(|&i| tree.moves[i] == Some(played))?;
        let mut after = history.clone();
        after.push(played);
        let mut out = carry_header::<G>(&after);
        out.push(VERSION);
        put_stats(&mut out, &tree.nodes[top], &tree.amaf[top]);
        // Best first: (visits, written order, index in the tree) of written nodes not yet
        // opened; ties go to the node written first, so the same top gives the same bytes
        // whatever the tree's layout.
        let mut frontier = BinaryHeap::from([(tree.nodes[top].visits, Reverse(0u32), top)]);
        let mut written = 1u32;
        while let Some((_, Reverse(new), old)) = frontier.pop() {
            let node = &tree.nodes[old];
            let count = node.child_count();
            if count == 0 || out.len() + BLOCK_BYTES + count * CHILD_BYTES > max_bytes {
                if old == top {
                    return None;
                }
                continue;
            }
            out.extend_from_slice(&new.to_le_bytes());
            out.extend_from_slice(&(count as u16).to_le_bytes());
            for child in node.children() {
                out.extend_from_slice(&(G::move_index(tree.mv(child)) as u16).to_le_bytes());
                put_stats(&mut out, &tree.nodes[child], &tree.amaf[child]);
                frontier.push((tree.nodes[child].visits, Reverse(written), child));
                written += 1;
            }
        }
        Some(out)
    }

    /// Rebuilds a tree from [`Mcts::carry_tree`]'s bytes as the kept tree of `history`,
    /// whose position is `root`; the next search reuses it as a kept-running bot's would.
    /// Every move is checked against the position it is carried for, every figure for
    /// sense; nothing is kept from bytes that fail.
    pub(super) fn resume_tree(&mut self, carried: &[u8], history: &[G::Move], root: &G) -> Result<(), String> {
        let mut bytes = CarriedReader::after_header::<G>(carried, history)?;
        if bytes.u8()? != VERSION {
            return Err("written by another version".into());
        }
        let mut tree = Tree::<G>::new(root, self.policy.has_knowledge(), 0);
        let (node, amaf) = read_stats(&mut bytes, tree.nodes[0].mover)?;
        (tree.nodes[0], tree.amaf[0]) = (Node { expansion: 0, first_child: 0, ..node }, amaf);
        let mut states = vec![root.clone()];
        let mut moves = Vec::new();
        while bytes.left() > 0 {
            let parent = bytes.u32()? as usize;
            let count = usize::from(bytes.u16()?);
            if parent >= tree.nodes.len() || tree.nodes[parent].expanded() {
                return Err(format!("a block for node {parent}, which is not there or already has children"));
            }
            let state = states[parent].clone();
            state.legal_moves(&mut moves);
            self.policy.keep_worth_trying(&state, &mut moves);
            if count != moves.len() || count == 0 {
                return Err(format!("{count} children where the position has {} moves", moves.len()));
            }
            let first = tree.nodes.len();
            let mover = state.to_move();
            for _ in 0..count {
                let index = usize::from(bytes.u16()?);
                let mv = *moves.iter().find(|&&m| G::move_index(m) == index).ok_or("a move that is not legal there")?;
                if tree.moves[first..].contains(&Some(mv)) {
                    return Err("a move carried twice".into());
                }
                let (node, amaf) = read_stats(&mut bytes, mover)?;
                tree.nodes.push(node);
                tree.amaf.push(amaf);
                tree.moves.push(Some(mv));
                if self.policy.has_knowledge() {
                    tree.knowledge.push(self.policy.knowledge(&state, mv));
                }
                let mut child = state.clone();
                child.play(mv);
                states.push(child);
            }
            tree.nodes[parent].set_children(first, count);
        }
        if !tree.nodes[0].expanded() {
            return Err("no children at the root".into());
        }
        self.saved = Some((history.to_vec(), tree));
        Ok(())
    }
}

/// A node's proof and counts, checked: rewards are sums of results between 0 and 1.
fn read_stats(bytes: &mut CarriedReader, mover: crate::game::Player) -> Result<(Node, Amaf), String> {
    let proof = match bytes.u8()? {
        0 => Proof::Unknown,
        1 => Proof::Win,
        2 => Proof::Loss,
        other => return Err(format!("proof {other}")),
    };
    let (visits, reward) = (bytes.u32()?, bytes.f32()?);
    let amaf = Amaf { visits: bytes.u32()?, reward: bytes.f32()? };
    let sane = |n: u32, sum: f32| sum.is_finite() && sum >= 0.0 && f64::from(sum) <= f64::from(n) + 0.5;
    if !sane(visits, reward) || !sane(amaf.visits, amaf.reward) {
        return Err("counts that no search gives".into());
    }
    let node = Node { mover, proof, expansion: 0, first_child: 0, visits, reward };
    Ok((node, amaf))
}

#[cfg(test)]
mod tests {
    use super::super::MctsConfig;
    use super::*;

    const ROOT_BYTES: usize = 1 + 16;
    use crate::search::{Budget, Engine, CARRY_HEADER_BYTES};

    /// Nim-like toy: take 1 or 2 from a pile; whoever takes the last wins.
    #[derive(Clone, Debug)]
    struct Pile(u8, crate::game::Player);

    impl Game for Pile {
        type Move = u8;
        fn to_move(&self) -> crate::game::Player {
            self.1
        }
        fn legal_moves(&self, moves: &mut Vec<u8>) {
            moves.clear();
            moves.extend((1..=2).filter(|&k| k <= self.0));
        }
        fn play(&mut self, mv: u8) {
            self.0 -= mv;
            self.1 = self.1.other();
        }
        fn outcome(&self) -> Option<crate::game::Outcome> {
            (self.0 == 0).then_some(crate::game::Outcome::Win(self.1.other()))
        }
        const MOVE_SPACE: usize = 3;
        fn move_index(mv: u8) -> usize {
            usize::from(mv)
        }
    }

    /// An engine that searched 30 stones, and the move it chose.
    fn searched(seed: u64) -> (Mcts<Pile, super::super::RandomPlayouts>, u8) {
        let config = MctsConfig { reuse_tree: true, ..MctsConfig::UCT };
        let mut engine = Mcts::new(config, super::super::RandomPlayouts, seed);
        let root = Pile(30, crate::game::Player::First);
        engine.set_history(&[]);
        let best = engine.search(&root, &[1, 2], &Budget::iterations(3000)).best;
        (engine, best)
    }

    /// The position after `taken` from 30 stones.
    fn after(taken: &[u8]) -> Pile {
        let mut p = Pile(30, crate::game::Player::First);
        for &k in taken {
            p.play(k);
        }
        p
    }

    #[test]
    fn a_carried_tree_comes_back_with_the_same_top() {
        let (engine, best) = searched(1);
        let bytes = engine.carry_tree(best, 2000).expect("a kept tree");
        assert!(bytes.len() <= 2000);
        let mut fresh = Mcts::new(engine.config, super::super::RandomPlayouts, 2);
        fresh.resume_tree(&bytes, &[best], &after(&[best])).expect("accepted");
        let old = &engine.saved.as_ref().unwrap().1;
        let top = old.nodes[0].children().find(|&i| old.moves[i] == Some(best)).unwrap();
        let new = &fresh.saved.as_ref().unwrap().1;
        assert_eq!(new.nodes[0].visits, old.nodes[top].visits);
        for (o, n) in old.nodes[top].children().zip(new.nodes[0].children()) {
            assert_eq!((old.moves[o], old.nodes[o].visits), (new.moves[n], new.nodes[n].visits));
        }
        // After the reply, the next search starts from the carried subtree.
        let reply = 1;
        fresh.set_history(&[best, reply]);
        let result = fresh.search(&after(&[best, reply]), &[1, 2], &Budget::iterations(10));
        assert!(result.summary.contains("reused=") && !result.summary.contains("reused=0 "), "{}", result.summary);
    }

    #[test]
    fn bytes_that_do_not_fit_are_refused_whole() {
        let (engine, best) = searched(3);
        let bytes = engine.carry_tree(best, 4000).unwrap();
        let root = after(&[best]);
        let mut fresh = Mcts::new(engine.config, super::super::RandomPlayouts, 4);
        // Another history, a cut, a flipped move, a count no search gives.
        assert!(fresh.resume_tree(&bytes, &[3 - best], &after(&[3 - best])).is_err());
        assert!(fresh.resume_tree(&bytes[..bytes.len() - 3], &[best], &root).is_err());
        let mut bad = bytes.clone();
        let first_move = CARRY_HEADER_BYTES + 1 + ROOT_BYTES + BLOCK_BYTES;
        bad[first_move] = 7;
        assert!(fresh.resume_tree(&bad, &[best], &root).is_err());
        let mut bad = bytes.clone();
        bad[first_move + 2 + 1 + 4..first_move + 2 + 1 + 8].copy_from_slice(&f32::NAN.to_le_bytes());
        assert!(fresh.resume_tree(&bad, &[best], &root).is_err());
        assert!(fresh.saved.is_none(), "nothing kept from refused bytes");
        // No room for the first children, or a move that was not searched: nothing to carry.
        assert!(engine.carry_tree(best, CARRY_HEADER_BYTES + 1 + ROOT_BYTES + 10).is_none());
        assert!(engine.carry_tree(9, 4000).is_none());
    }
}
