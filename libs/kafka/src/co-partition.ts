import type { PartitionAssigner } from 'kafkajs';
import { AssignerProtocol } from './kafkajs.ts';

/**
 * A co-partitioned group: each process ("instance") runs one member per
 * role, each role consuming its own topic, and an instance's members always
 * get the same partition numbers of their topics. Delivery uses it so the
 * member applying device-events partition p to an instance's audience index
 * and the member running fan-out tasks of partition p live together.
 */
export interface CoPartitionMember {
  memberId: string;
  instance: string;
  role: string;
  /** Per partition, the next offset this instance has applied locally (its checkpoint): partitions go where the least is left to catch up. */
  checkpoints: Readonly<Record<string, number>>;
}

/** Topic per role (physical names). */
export type RoleTopics = Readonly<Record<string, string>>;

/**
 * Which partitions each member gets (pure). Instances that have a member of
 * the first role (the one whose state the others read: the index) share the
 * partitions evenly (⌊P/n⌋ or ⌈P/n⌉ each), and each of an instance's members
 * gets them on its role's topic; a partition goes to the instance with the
 * highest checkpoint for it when that one has room, so a restarted instance
 * gets its partitions back and a moved one is rebuilt where most of it
 * already is. A member of an instance without a first-role member gets
 * nothing (it would wait on state nobody builds).
 */
export function assignCoPartitioned(members: readonly CoPartitionMember[], roles: RoleTopics, partitionCount: number): Map<string, Record<string, number[]>> {
  const anchor = Object.keys(roles)[0];
  const byInstance = new Map<string, CoPartitionMember[]>();
  for (const member of members) byInstance.set(member.instance, [...(byInstance.get(member.instance) ?? []), member]);
  const complete = [...byInstance.keys()].filter((instance) => byInstance.get(instance)!.some((member) => member.role === anchor)).sort();
  const assignment = new Map<string, Record<string, number[]>>(members.map((member) => [member.memberId, {}]));
  if (complete.length === 0) return assignment;

  // Every instance gets ⌊P/n⌋ or ⌈P/n⌉, and only P mod n of them the larger share: an instance that joins takes
  // partitions from the others (sticky, but never so sticky that a new instance stays idle).
  const floor = Math.floor(partitionCount / complete.length);
  const extra = partitionCount % complete.length;
  let aboveFloor = 0;
  const load = new Map(complete.map((instance) => [instance, 0]));
  const hasRoom = (instance: string) => load.get(instance)! < floor || (load.get(instance)! === floor && aboveFloor < extra);
  const checkpoint = (instance: string, partition: number) =>
    Math.max(-1, ...byInstance.get(instance)!.map((member) => member.checkpoints[String(partition)] ?? -1));
  const owner = new Map<number, string>();
  // Partitions someone has the most of go first, so a strong preference is not crowded out by a weak one.
  const order = Array.from({ length: partitionCount }, (_, partition) => partition).sort(
    (a, b) => Math.max(...complete.map((instance) => checkpoint(instance, b))) - Math.max(...complete.map((instance) => checkpoint(instance, a))) || a - b,
  );
  for (const partition of order) {
    const candidates = complete.filter(hasRoom);
    candidates.sort((a, b) => checkpoint(b, partition) - checkpoint(a, partition) || load.get(a)! - load.get(b)! || (a < b ? -1 : 1));
    const chosen = candidates[0]!;
    owner.set(partition, chosen);
    if (load.get(chosen)! === floor) aboveFloor += 1;
    load.set(chosen, load.get(chosen)! + 1);
  }
  for (const instance of complete) {
    const partitions = [...owner].filter(([, name]) => name === instance).map(([partition]) => partition).sort((a, b) => a - b);
    for (const member of byInstance.get(instance)!) {
      const topic = roles[member.role];
      if (topic !== undefined) assignment.set(member.memberId, { [topic]: partitions });
    }
  }
  return assignment;
}

export interface CoPartitionOptions {
  instance: string;
  role: string;
  roles: RoleTopics;
  /** Read at every join, so the leader assigns by fresh checkpoints. */
  checkpoints?: () => Record<string, number>;
}

const NAME = 'HeraldCoPartition';

/** The kafkajs assigner for a co-partitioned group; every member of the group must use it. */
export function coPartitionAssigner(options: CoPartitionOptions): PartitionAssigner {
  return ({ cluster }) => ({
    name: NAME,
    version: 1,
    protocol: ({ topics }) => ({
      name: NAME,
      metadata: AssignerProtocol.MemberMetadata.encode({
        version: 1,
        topics,
        userData: Buffer.from(JSON.stringify({ instance: options.instance, role: options.role, checkpoints: options.checkpoints?.() ?? {} })),
      }),
    }),
    assign: async ({ members }) => {
      const decoded = members.map(({ memberId, memberMetadata }): CoPartitionMember => {
        const metadata = AssignerProtocol.MemberMetadata.decode(memberMetadata);
        const data = JSON.parse(metadata?.userData.toString() || '{}') as Partial<CoPartitionMember>;
        return { memberId, instance: data.instance ?? memberId, role: data.role ?? '', checkpoints: data.checkpoints ?? {} };
      });
      const counts = Object.values(options.roles).map((topic) => cluster.findTopicPartitionMetadata(topic).length);
      const partitionCount = Math.min(...counts);
      const assignment = assignCoPartitioned(decoded, options.roles, partitionCount);
      return [...assignment].map(([memberId, topics]) => ({
        memberId,
        memberAssignment: AssignerProtocol.MemberAssignment.encode({ version: 1, assignment: topics, userData: Buffer.alloc(0) }),
      }));
    },
  });
}
