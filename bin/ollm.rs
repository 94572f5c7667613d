fn main() {
    ollm::cli::main_with("ollm", ollm::dispatch::main)
}
