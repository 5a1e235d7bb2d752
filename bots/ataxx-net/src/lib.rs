//! The Ataxx bot's learned evaluation, made from scratch: self-play records
//! ([`datagen`], in the format of [`record`]) and the trainer ([`train`]) that turns them
//! into the network file `shared/src/ataxx/ataxx.net` (read by `botzone_games::ataxx::net`),
//! and [`dump`], records as text to compare evaluations.

pub mod datagen;
pub mod dump;
pub mod record;
pub mod train;
