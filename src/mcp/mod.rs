//! `ollm-mcp`: the session store, context and discovery served over the
//! Model Context Protocol. Only its command line is here, so that the
//! generated docs and the dispatcher know it; the server is the `ollm-mcp`
//! package (`mcp/`), which keeps rmcp out of the other programs.

pub mod cli;
