fn main() {
    ollm::cli::main_with("ollm-env", ollm::env::cli::main)
}
