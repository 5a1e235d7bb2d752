//! The arena's integration tests, in one test binary (it links once; its tests run side
//! by side): the judge against fake bots, foreign engines, and the web page in a browser.

mod arena;
mod browser;
mod engines;
