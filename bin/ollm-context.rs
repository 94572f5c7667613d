fn main() {
    ollm::cli::main_with("ollm-context", ollm::context::cli::main)
}
