fn main() {
    ollm::cli::main_with("ollm-loopcheck", ollm::loopcheck::cli::main)
}
