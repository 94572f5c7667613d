//! `ollm-mcp`: the MCP server over stdio. The command line is
//! `ollm::mcp::cli` (so the docs and the dispatcher know it); the server
//! is [`server::Server`], its tools in [`tools`].

mod bounded;
mod cursor;
mod hang_up;
mod safe;
mod schema;
mod served;
mod server;
mod tools;

use ollm::cli::Ctx;
use ollm::error::{Error, ExitCode, Result};
use ollm::mcp::cli::{Cli, Command};
use rmcp::ServiceExt;
use rmcp::service::ServerInitializeError;

/// The program: `config`, or the server until its client goes away.
pub fn run() -> Result<ExitCode> {
    let cli: Cli = ollm::cli::parse()?;
    if let Some(Command::Config(args)) = &cli.command {
        return ollm::cli::show_config(&Ctx::new(cli.global.clone()), args);
    }
    let server = server::Server::new(cli.global.config.clone(), cli.allow_write);
    // One thread for the protocol; the tools run one at a time on a
    // blocking thread (`server::Server::call_tool`), so that SIGTERM and a
    // closed stdin are seen while a long call runs.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::io("tokio runtime", &e))?;
    let served = runtime.block_on(serve(server));
    // The stdin reader blocks in a thread of the runtime: dropping the
    // runtime would wait for a line that may never come (after SIGTERM).
    runtime.shutdown_background();
    served
}

/// Serves until stdin closes (the client went away) or SIGTERM; either is
/// a clean exit, before the handshake as after it. SIGTERM ends the
/// process at once, whatever is queued. A client that closes stdin has
/// said all it will: what it sent is answered for [`HANG_UP_GRACE`] (a
/// shell's `printf … | ollm mcp` gets its answers), then the process ends.
async fn serve(server: server::Server) -> Result<ExitCode> {
    let mut terminate = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .map_err(|e| Error::io("SIGTERM handler", &e))?;
    let hung_up = hang_up::stdin();
    tokio::select! {
        served = serve_until_closed(server) => served,
        _ = terminate.recv() => Ok(ExitCode::Success),
        () = async {
            hung_up.await;
            tokio::time::sleep(HANG_UP_GRACE).await;
        } => Ok(ExitCode::Success),
    }
}

/// The longest request line read; a longer one is dropped (by rmcp,
/// unanswered). rmcp's own default, 16 MiB, is what redaction reads of one
/// text ([`ollm::redact::PRECISE_LIMIT`]), so a message the CLI stores whole
/// could not arrive once JSON had escaped its line ends, and a longer one
/// never reached the store to be cut and counted (`withheld`). Twice that
/// leaves room for the escaping; memory stays bounded by it times
/// [`bounded::IN_FLIGHT`].
const MAX_REQUEST_LINE: usize = 2 * ollm::redact::PRECISE_LIMIT;

/// How long requests already sent are still answered once stdin closes.
const HANG_UP_GRACE: std::time::Duration = std::time::Duration::from_millis(500);

async fn serve_until_closed(server: server::Server) -> Result<ExitCode> {
    let (stdin, stdout) = rmcp::transport::stdio();
    let transport = bounded::Bounded::new(
        rmcp::transport::async_rw::AsyncRwTransport::new_server(stdin, stdout)
            .with_max_line_length(MAX_REQUEST_LINE),
        bounded::IN_FLIGHT,
    );
    let running = match server.serve(transport).await {
        Ok(running) => running,
        Err(ServerInitializeError::ConnectionClosed(_)) => return Ok(ExitCode::Success),
        Err(e) => return Err(Error::Input(format!("MCP start-up failed: {e}"))),
    };
    running
        .waiting()
        .await
        .map_err(|e| Error::Input(format!("MCP service stopped: {e}")))?;
    Ok(ExitCode::Success)
}
