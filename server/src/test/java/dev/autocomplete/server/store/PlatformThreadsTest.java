package dev.autocomplete.server.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Work called from a virtual thread runs on a platform thread; what it throws comes back as it was. */
class PlatformThreadsTest {

    @Test
    void work_called_from_a_virtual_thread_runs_on_a_platform_thread_and_its_failures_come_back() throws Exception {
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        AtomicReference<Object> result = new AtomicReference<>();
        IllegalArgumentException thrown = new IllegalArgumentException("bad");
        Thread caller = Thread.ofVirtual().start(() -> {
            result.set(PlatformThreads.call(() -> {
                ranOn.set(Thread.currentThread());
                return 42;
            }));
            try {
                PlatformThreads.call(() -> {
                    throw thrown;
                });
            } catch (IllegalArgumentException e) {
                result.set(result.get() + " " + (e == thrown));
            }
        });
        caller.join();
        assertFalse(ranOn.get().isVirtual(), "the work ran on " + ranOn.get());
        assertEquals("42 true", result.get());

        // From a platform thread: run where it is.
        Thread here = Thread.currentThread();
        assertSame(here, PlatformThreads.call(Thread::currentThread));
        StorageUnavailableException away = new StorageUnavailableException("away", null);
        assertSame(
                away,
                assertThrows(
                        StorageUnavailableException.class,
                        () -> PlatformThreads.call(() -> {
                            throw away;
                        })));
        assertTrue(!here.isVirtual());
    }
}
