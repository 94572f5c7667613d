fn main() {
    ollm::cli::main_with("ollm-session", ollm::session::cli::main)
}
