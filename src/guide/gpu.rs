//! # gpu
