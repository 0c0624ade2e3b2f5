import {
  allPermissions,
  type Permission,
  type PermissionLevel,
  type PermissionModule,
  permissionLevels,
  permissionModules,
} from '@protocol/contracts';

/** The highest level a module has in a permission list (-1 for none); a level includes the lower ones. */
export function highestRank(permissions: readonly string[], module: PermissionModule): number {
  let rank = -1;
  permissionLevels.forEach((level, index) => {
    if (permissions.includes(`${module}:${level}`)) rank = index;
  });
  return rank;
}

/** Every permission a set of permissions grants, levels included, in the catalog's order. */
export function expandPermissions(permissions: readonly string[]): Permission[] {
  const ranks = new Map(permissionModules.map((module) => [module, highestRank(permissions, module)]));
  return allPermissions.filter((permission) => {
    const [module, level] = permission.split(':') as [PermissionModule, PermissionLevel];
    return permissionLevels.indexOf(level) <= (ranks.get(module) ?? -1);
  });
}

/** The list with `module` set to `rank` (-1 none, 0 read, 1 write, 2 admin), levels included. */
export function withModuleRank(
  permissions: readonly string[],
  module: PermissionModule,
  rank: number,
): Permission[] {
  const others = permissions.filter((permission) => !permission.startsWith(`${module}:`));
  const own = permissionLevels.slice(0, rank + 1).map((level) => `${module}:${level}`);
  return expandPermissions([...others, ...own]);
}
