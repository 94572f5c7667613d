//! The MCP service: rmcp answers the protocol (both generations: the
//! `initialize` handshake and `server/discover` with per-request `_meta`);
//! this says what the server offers and runs the tools and resources.

use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};

use ollm::error::Error;
use ollm::session::Store;
use ollm::session::export;
use ollm::session::model::check_id;
use ollm::session::store::ListQuery;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, Implementation, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ReadResourceRequestParams,
    ReadResourceResponse, ReadResourceResult, Resource, ResourceContents, ResourceTemplate,
    ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

use crate::cursor::decode_offset;
use crate::safe::{self, Cleaner};
use crate::tools::{self, Env};

/// Sessions in one page of `resources/list`.
const RESOURCE_PAGE: usize = 100;
const URI_PREFIX: &str = "ollm://session/";

/// Held by the tool call that is running.
static ONE_CALL: Mutex<()> = Mutex::new(());

/// What the server offers, naming the tools of the importers' table.
fn instructions() -> String {
    format!(
        "Session history of this machine's coding agents (ours and those imported from {}), this workspace's prioritized context, and its files as git sees them. Search with search_sessions, then read around a hit with get_session (paged under a token budget).",
        ollm::session::import::listed()
    )
}

#[derive(Debug, Clone)]
pub struct Server {
    env: Env,
    allow_write: bool,
}

impl Server {
    pub fn new(config_file: Option<PathBuf>, allow_write: bool) -> Server {
        Server {
            env: Env { config_file },
            allow_write,
        }
    }

    /// The store, and the cleaner of what is read from it.
    fn store(&self) -> Result<(Store, Cleaner), ErrorData> {
        let loaded = self.env.config().map_err(|e| internal(&e))?;
        let store = Store::from_config(&loaded.config).map_err(|e| internal(&e))?;
        Ok((store, Cleaner::new(&loaded.config)))
    }
}

fn internal(err: &Error) -> ErrorData {
    ErrorData::internal_error(safe::one_line(err), None)
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .build(),
        )
        .with_server_info(Implementation::new("ollm-mcp", env!("CARGO_PKG_VERSION")))
        .with_instructions(instructions())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tools::definitions(
            self.allow_write,
        )))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let env = self.env.clone();
        let allow_write = self.allow_write;
        blocking(&context, move || {
            Ok(tools::call(&env, allow_write, &request.name, request.arguments).into())
        })
        .await
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let server = self.clone();
        blocking(&context, move || server.resources(request.as_ref())).await
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(vec![
            ResourceTemplate::new(format!("{URI_PREFIX}{{sessionId}}"), "session")
                .with_description("A recorded session as Markdown")
                .with_mime_type("text/markdown"),
        ]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let server = self.clone();
        blocking(&context, move || server.resource(request.uri)).await
    }
}

impl Server {
    fn resources(
        &self,
        request: Option<&PaginatedRequestParams>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let offset = decode_offset(request.and_then(|r| r.cursor.as_deref()))
            .map_err(|e| ErrorData::invalid_params(safe::one_line(&e), None))?;
        let (store, cleaner) = self.store()?;
        let listing = store
            .list_where(&ListQuery {
                offset,
                limit: Some(RESOURCE_PAGE + 1),
                ..ListQuery::default()
            })
            .map_err(|e| internal(&e))?;
        let more = listing.sessions.len() > RESOURCE_PAGE;
        let resources = listing
            .sessions
            .into_iter()
            .take(RESOURCE_PAGE)
            .map(|s| {
                let name = s.title.clone().unwrap_or_else(|| s.session_id.clone());
                Resource::new(tools::session_uri(&s.session_id), cleaner.clean_text(&name))
                    .with_description(cleaner.clean_text(&format!(
                        "{} messages, {}, last active {}",
                        s.message_count, s.model, s.last_activity
                    )))
                    .with_mime_type("text/markdown")
            })
            .collect();
        let mut result = ListResourcesResult::with_all_items(resources);
        result.next_cursor = more.then(|| (offset + RESOURCE_PAGE).to_string());
        Ok(result)
    }

    fn resource(&self, uri: String) -> Result<ReadResourceResponse, ErrorData> {
        let id = uri.strip_prefix(URI_PREFIX).ok_or_else(|| {
            ErrorData::resource_not_found(
                safe::one_line(&format!(
                    "no resource '{uri}' (expected {URI_PREFIX}<sessionId>)"
                )),
                None,
            )
        })?;
        check_id(id, "session").map_err(|e| ErrorData::invalid_params(safe::one_line(&e), None))?;
        let (store, cleaner) = self.store()?;
        let loaded = store.load(id).map_err(|e| match e {
            Error::NotFound(_) => ErrorData::resource_not_found(safe::one_line(&e), None),
            e => internal(&e),
        })?;
        let text = cleaner.clean_text(&export::markdown(&loaded));
        Ok(ReadResourceResult::new(vec![
            ResourceContents::text(text, uri.clone()).with_mime_type("text/markdown"),
        ])
        .into())
    }
}

/// Runs `work` on a blocking thread, one request at a time: the
/// protocol's thread stays free to see SIGTERM or a closed stdin (which
/// end the process, abandoning what is still queued), and a request the
/// client cancelled before its turn came is not run.
async fn blocking<T: Send + 'static>(
    context: &RequestContext<RoleServer>,
    work: impl FnOnce() -> Result<T, ErrorData> + Send + 'static,
) -> Result<T, ErrorData> {
    let cancelled = context.ct.clone();
    tokio::task::spawn_blocking(move || {
        let _one_at_a_time = ONE_CALL.lock().unwrap_or_else(PoisonError::into_inner);
        if cancelled.is_cancelled() {
            return Err(ErrorData::internal_error("cancelled by the client", None));
        }
        work()
    })
    .await
    .map_err(|e| ErrorData::internal_error(format!("the request failed: {e}"), None))?
}
