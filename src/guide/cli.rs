//! # cli
