// Delivery/Storage/ — the delivery outbox's table: messages waiting for, undergoing or done with delivery.
//
// - `DeliveryOutboxRepository.swift`: enqueued in the caller's transaction, claimed with a lease, text wiped.
