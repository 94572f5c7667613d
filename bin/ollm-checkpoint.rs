// No Rust runtime set-up: see `ollm::program_main!`.
#![no_main]
// Checkpoint reaches the session store through the session service, which
// imports checkpoint (for `rewind` and `delete`): the program joins them.
fn checkpoint() -> ollm::Result<ollm::ExitCode> {
    ollm::checkpoint::cli::main(&ollm::session::checkpointed::CheckpointSessions)
}
ollm::program_main!("ollm-checkpoint", checkpoint);
