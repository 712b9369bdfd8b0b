//! wip
pub mod board;
pub mod model;
