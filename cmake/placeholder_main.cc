int main() { return 1; }  // stands in for a test whose sources do not exist yet
