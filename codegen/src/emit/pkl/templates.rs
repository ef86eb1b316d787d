//! The Pkl templates, embedded from `codegen/templates/pkl/` under the
//! `pkl/` namespace, with autoescape off and vergate's Pkl filters.

use super::escape::register_filters;
use crate::error::{Error, Result};
use serde::Serialize;
use std::sync::OnceLock;
use tera::{Context, Tera};

const TEMPLATES: &[(&str, &str)] = &[
    (
        "pkl/module.pkl.tera",
        include_str!("../../../templates/pkl/module.pkl.tera"),
    ),
    (
        "pkl/PklProject.tera",
        include_str!("../../../templates/pkl/PklProject.tera"),
    ),
    (
        "pkl/subproject.tera",
        include_str!("../../../templates/pkl/subproject.tera"),
    ),
    (
        "pkl/shared.pkl.tera",
        include_str!("../../../templates/pkl/shared.pkl.tera"),
    ),
    (
        "pkl/target.pkl.tera",
        include_str!("../../../templates/pkl/target.pkl.tera"),
    ),
    (
        "pkl/example.pkl.tera",
        include_str!("../../../templates/pkl/example.pkl.tera"),
    ),
    (
        "pkl/minor_package.tera",
        include_str!("../../../templates/pkl/minor_package.tera"),
    ),
    (
        "pkl/k8s_object.pkl.tera",
        include_str!("../../../templates/pkl/k8s_object.pkl.tera"),
    ),
    (
        "pkl/k8s_resource.pkl.tera",
        include_str!("../../../templates/pkl/k8s_resource.pkl.tera"),
    ),
    (
        "pkl/k8s_path.pkl.tera",
        include_str!("../../../templates/pkl/k8s_path.pkl.tera"),
    ),
    (
        "pkl/k8s_schema.pkl.tera",
        include_str!("../../../templates/pkl/k8s_schema.pkl.tera"),
    ),
];

/// The Pkl template set, built once.
fn tera() -> &'static Tera {
    static TERA: OnceLock<Tera> = OnceLock::new();
    TERA.get_or_init(|| {
        let mut tera = Tera::default();
        tera.autoescape_on(Vec::new());
        register_filters(&mut tera);
        tera.add_raw_templates(TEMPLATES.iter().copied())
            .unwrap_or_else(|err| panic!("the embedded Pkl templates do not parse: {err:?}"));
        tera
    })
}

/// Renders the template `name` (without the `pkl/` namespace) with `data`.
pub fn render(name: &str, data: &impl Serialize) -> Result<Vec<u8>> {
    let full = format!("pkl/{name}");
    let context = Context::from_serialize(data).map_err(|err| template_error(&full, &err))?;
    tera()
        .render(&full, &context)
        .map(String::into_bytes)
        .map_err(|err| template_error(&full, &err))
}

fn template_error(name: &str, err: &tera::Error) -> Error {
    let mut message = err.to_string();
    let mut source = std::error::Error::source(err);
    while let Some(cause) = source {
        message.push_str(": ");
        message.push_str(&cause.to_string());
        source = cause.source();
    }
    Error::Config {
        path: format!("codegen/templates/{name}").into(),
        message: format!("rendering failed: {message}"),
    }
}
