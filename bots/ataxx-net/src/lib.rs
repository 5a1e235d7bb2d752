//! The Ataxx bot's learned evaluation, made from scratch: self-play records
//! ([`datagen`], in the format of [`record`]) and the trainer ([`train`]) that turns them
//! into the network file `shared/src/ataxx/ataxx.net` (read by `botzone_games::ataxx::net`),
//! [`dump`], records as text to compare evaluations, and [`widen`], a trained network
//! doubled in width (same values) as the start of a wider one, and a widened network's
//! copies merged with half its units drawn afresh.

pub mod datagen;
pub mod dump;
pub mod record;
pub mod train;
pub mod widen;

use botzone_games::ataxx::net::{FileRows, Network, HIDDEN};
use std::path::Path;

/// The network in a network file (as `train` writes it), or what is wrong with it.
pub fn read_network(path: &Path) -> Result<Network, String> {
    parse_file(path, Network::from_bytes)
}

/// The numbers of a network file of this build's width, whatever their range (a network
/// from before the int8 input rows too), or what is wrong with it.
pub fn read_rows(path: &Path) -> Result<FileRows, String> {
    parse_file(path, |bytes| FileRows::read(bytes, HIDDEN))
}

/// A file read and parsed, any error named with the file's path.
fn parse_file<T>(path: &Path, parse: impl FnOnce(&[u8]) -> Result<T, String>) -> Result<T, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}
