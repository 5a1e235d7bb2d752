//! A table of proofs and bounds for the exact solvers (Pencil's and NoGo's): two slots per
//! key, a hit in either. A store replaces the entry of the same key, else the entry whose
//! search would be cheaper to redo, so that the long searches near the root survive the
//! many small ones near the leaves.

use super::pages;

/// What the table needs of an entry.
pub trait PairEntry: Copy + Default {
    /// The entry's key; 0 marks an empty slot, so no stored key may be 0.
    fn key(&self) -> u64;
    /// The search the entry saves (nodes, or a size of the position that stands for
    /// them): of two entries competing for a slot pair, the lighter gives way.
    fn weight(&self) -> u64;
    /// The hash that picks a key's slot pair: the key itself where it is already a good
    /// hash, else a mix of it.
    fn index(key: u64) -> u64 {
        key
    }
}

pub struct PairTable<E> {
    slots: Vec<E>,
}

impl<E: PairEntry> PairTable<E> {
    /// No slots: the first search makes the table it needs (a bot that never solves never
    /// pays for one).
    pub const fn empty() -> PairTable<E> {
        PairTable { slots: Vec::new() }
    }

    /// A table of `slots` empty slots, a power of two, at least 2.
    pub fn new(slots: usize) -> PairTable<E> {
        assert!(slots.is_power_of_two() && slots >= 2, "{slots} slots: a power of two, at least 2");
        PairTable { slots: pages::filled(slots, E::default()) }
    }

    /// The most slots that `bytes` hold, a power of two (at least 2).
    pub fn slots_within(bytes: usize) -> usize {
        let fits = (bytes / std::mem::size_of::<E>()).max(2);
        if fits.is_power_of_two() {
            fits
        } else {
            fits.next_power_of_two() / 2
        }
    }

    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The first of the two slots `key` may occupy.
    fn pair(&self, key: u64) -> usize {
        (E::index(key) as usize) & (self.slots.len() - 2)
    }

    /// The slot holding `key`, if either of its pair does.
    fn slot_of(&self, key: u64) -> Option<usize> {
        let pair = self.pair(key);
        (pair..pair + 2).find(|&i| self.slots[i].key() == key)
    }

    /// Asks the memory for the slot pair of `key`, about to be probed ([`pages::prefetch`]).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        if !self.slots.is_empty() {
            pages::prefetch(&self.slots[self.pair(key)]);
        }
    }

    /// The entry of `key`, if either slot of its pair holds it.
    pub fn get(&self, key: u64) -> Option<&E> {
        self.slot_of(key).map(|i| &self.slots[i])
    }

    /// Stores `entry` over the entry of the same key, else over the lighter of the pair.
    pub fn store(&mut self, entry: E) {
        let slot = self.slot_of(entry.key()).unwrap_or_else(|| {
            let pair = self.pair(entry.key());
            if self.slots[pair].weight() <= self.slots[pair + 1].weight() {
                pair
            } else {
                pair + 1
            }
        });
        self.slots[slot] = entry;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, Copy, Default, PartialEq)]
    struct Entry {
        key: u64,
        work: u64,
    }

    impl PairEntry for Entry {
        fn key(&self) -> u64 {
            self.key
        }
        fn weight(&self) -> u64 {
            self.work
        }
    }

    #[test]
    fn the_lighter_entry_gives_way_and_the_same_key_is_replaced() {
        let mut table = PairTable::<Entry>::new(8);
        // Keys 2, 10 and 18 share the pair of slots 2 and 3.
        table.store(Entry { key: 2, work: 50 });
        table.store(Entry { key: 10, work: 5 });
        assert_eq!(table.get(2), Some(&Entry { key: 2, work: 50 }));
        assert_eq!(table.get(10), Some(&Entry { key: 10, work: 5 }));
        table.store(Entry { key: 18, work: 1 });
        assert_eq!(table.get(10), None, "the lighter of the two gave way");
        assert_eq!(table.get(2).map(|e| e.work), Some(50));
        assert_eq!(table.get(18).map(|e| e.work), Some(1));
        // The same key is replaced in place, even by a lighter entry.
        table.store(Entry { key: 2, work: 3 });
        assert_eq!(table.get(2).map(|e| e.work), Some(3));
        assert_eq!(table.get(18).map(|e| e.work), Some(1));
        // Other pairs are untouched.
        assert_eq!(table.get(4), None);
    }

    #[test]
    fn the_slots_within_a_size_are_a_power_of_two() {
        assert_eq!(PairTable::<Entry>::slots_within(16 * 1024), 1024);
        assert_eq!(PairTable::<Entry>::slots_within(16 * 1500), 1024);
        assert_eq!(PairTable::<Entry>::slots_within(1), 2);
    }
}
