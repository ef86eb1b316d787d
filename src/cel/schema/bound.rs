//! The one depth bound of a CRD schema's readers, in a file of its own so
//! that a reader of the schemas as written (`written`) imports nothing
//! else of the tree.

/// The deepest schema level read (of `properties`, `items` and
/// `additionalProperties`; the root is level 0), for every concern alike:
/// rules, junctors and defaults below it are not read. The API server has
/// no schema depth of its own (its JSON and YAML decoders stop at 10,000
/// levels of nesting, its 3 MiB request bounds the rest), so this is
/// vergate's: far past real CRDs (the deepest in `../shared/crds` and
/// Gateway API nests 16 levels), and the bound docs/cli.md states for a
/// schema's junctors, whose cut is a warning naming the schema path
/// (`ServedSchema::junctors_cut`). `cel::gates` follows definitions no
/// deeper.
pub const MAX_DEPTH: usize = 64;
