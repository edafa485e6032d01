// A Java program that starts a thread (the JVM reserves gigabytes of address space).
public class Threads {
    public static void main(String[] args) throws Exception {
        Thread thread = new Thread(() -> System.out.println("java thread up"));
        thread.start();
        thread.join();
        System.out.println("java up");
    }
}
