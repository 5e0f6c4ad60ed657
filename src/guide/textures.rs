//! # textures
