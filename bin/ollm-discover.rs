fn main() {
    ollm::cli::main_with("ollm-discover", ollm::discover::cli::main)
}
