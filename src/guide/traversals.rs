//! # traversals
