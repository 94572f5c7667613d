// No Rust runtime set-up: see `ollm::program_main!`.
#![no_main]
ollm::program_main!("ollm-checkpoint", ollm::checkpoint::cli::main);
