package reduce

// PartitionsFor lets the tests pick Options.PartitionCaptures for a given
// number of partitions.
var PartitionsFor = partitionsFor

// MaxPartitions is maxPartitions, for PartitionsFor.
const MaxPartitions = maxPartitions
