//! A message-queue plugin's configuration, one superset type per resource.

/// The queue service's API, as minors 2.3 to 2.6 accept it.
#[vergate::versioned(minors = "2.3..=2.6")]
pub mod api {
    /// A queue.
    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct QueueSpec {
        /// The queue's name.
        pub name: String,
        /// How long a message is kept, in seconds.
        pub retention_seconds: Option<i64>,
        /// Messages that fail this many times go to the dead-letter queue.
        #[introduced_in("2.4")]
        pub max_receive_count: Option<i32>,
        /// Where failed messages go.
        #[introduced_in("2.4")]
        #[stage(beta = "2.4", ga = "2.5")]
        #[feature_gate("DeadLetterQueues")]
        pub dead_letter: Option<DeadLetter>,
        /// Replaced by retention_seconds.
        #[deprecated_in("2.4")]
        #[removed_in("2.6")]
        pub retention_days: Option<i32>,
        pub ordering: Option<Ordering>,
    }

    /// A dead-letter target.
    #[derive(Clone, Debug, Default, PartialEq)]
    #[introduced_in("2.4")]
    pub struct DeadLetter {
        pub queue: String,
    }

    /// Delivery order.
    #[derive(Clone, Debug, PartialEq)]
    pub enum Ordering {
        BestEffort,
        #[introduced_in("2.5")]
        Fifo,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_field_exists_only_where_its_minor_has_it() {
        let spec = super::api::v2_5::QueueSpec {
            name: "orders".into(),
            max_receive_count: Some(3),
            ..Default::default()
        };
        assert_eq!(spec.max_receive_count, Some(3));
    }
}
