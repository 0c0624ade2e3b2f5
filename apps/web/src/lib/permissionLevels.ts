import {
  allPermissions,
  type Permission,
  type PermissionArea,
  type PermissionLevel,
  permissionAreas,
  permissionLevels,
} from '@protocol/contracts';

/** The highest level an area has in a permission list (-1 for none); a level includes the lower ones. */
export function highestRank(permissions: readonly string[], area: PermissionArea): number {
  let rank = -1;
  permissionLevels.forEach((level, index) => {
    if (permissions.includes(`${area}:${level}`)) rank = index;
  });
  return rank;
}

/** Every permission a set of permissions grants, levels included, in the catalog's order. */
export function expandPermissions(permissions: readonly string[]): Permission[] {
  const ranks = new Map(permissionAreas.map((area) => [area, highestRank(permissions, area)]));
  return allPermissions.filter((permission) => {
    const [area, level] = permission.split(':') as [PermissionArea, PermissionLevel];
    return permissionLevels.indexOf(level) <= (ranks.get(area) ?? -1);
  });
}

/** The list with `area` set to `rank` (-1 none, 0 read, 1 write, 2 admin), levels included. */
export function withAreaRank(
  permissions: readonly string[],
  area: PermissionArea,
  rank: number,
): Permission[] {
  const others = permissions.filter((permission) => !permission.startsWith(`${area}:`));
  const own = permissionLevels.slice(0, rank + 1).map((level) => `${area}:${level}`);
  return expandPermissions([...others, ...own]);
}
