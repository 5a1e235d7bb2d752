//! The library's integration tests, in one test binary: it links once, and cargo, which
//! runs test binaries one after another, can run all of them side by side.

mod ataxx_rules;
mod dots_oracle;
mod dots_rules;
mod engines;
mod nogo_rules;
mod properties;
mod protocol;
mod search;
mod search_core;
