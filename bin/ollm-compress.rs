fn main() {
    ollm::cli::main_with("ollm-compress", ollm::compress::cli::main)
}
