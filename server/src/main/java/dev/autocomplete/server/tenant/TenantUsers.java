package dev.autocomplete.server.tenant;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts the requests using one loaded {@link Tenant}, so that a replaced or removed tenant is closed only
 * after the last of them finished. One int holds both: twice the number of users, plus 1 once retired.
 * After retirement no new user gets in; exactly one party (the retirer, or the last user out) closes.
 */
final class TenantUsers {

    private static final int RETIRED = 1;

    private final Tenant tenant;
    private final AtomicInteger state = new AtomicInteger();

    TenantUsers(Tenant tenant) {
        this.tenant = tenant;
    }

    Tenant tenant() {
        return tenant;
    }

    /** Registers one more user; false once the tenant is retired. */
    boolean acquire() {
        while (true) {
            int s = state.get();
            if ((s & RETIRED) != 0) {
                return false;
            }
            if (state.compareAndSet(s, s + 2)) {
                return true;
            }
        }
    }

    void release() {
        if (state.addAndGet(-2) == RETIRED) {
            closeLater();
        }
    }

    /** No new users from now on; closes the tenant now when unused, else once the last user is done. */
    void retire() {
        if (state.getAndUpdate(s -> s | RETIRED) == 0) {
            tenant.close();
        }
    }

    /** Off the request's thread: closing engines must not delay a response. */
    private void closeLater() {
        Thread.ofVirtual().name("close-tenant-" + tenant.id()).start(tenant::close);
    }
}
