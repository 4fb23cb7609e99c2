// The shared, lazily created IP geolocation data: the ASN index (built on first use if the setup step
// did not build it), the IPv4 city database (IPv6 opens on its first lookup) and the optional proxy list.
// Only tools that use it pay for loading it.
import { performance } from 'node:perf_hooks';
import { ToolError } from '../../errors.js';
import { defineService } from '../../registry/services.js';
import { defaultAsnIndexLocation, loadAsnIndex } from './asn-index-store.js';
import { CityDatabase, defaultCityDatabaseFiles } from './city-database.js';
import { IpGeolocator } from './ip-geolocator.js';
import { ProxyList } from './proxy-list.js';

export const ipGeolocationService = defineService({
  name: 'ip-geolocation',
  async create({ config, log }) {
    const started = performance.now();
    const city = new CityDatabase(defaultCityDatabaseFiles(config.geo.cityDb));
    const proxyFile = config.geo.proxyListFile;
    const [asn, citySource, proxies] = await Promise.all([
      loadAsnIndex(defaultAsnIndexLocation(), log),
      city.open([4]).then(() => city.source()),
      proxyFile
        ? ProxyList.load(proxyFile, (err) => log.warn('could not refresh the proxy list', { file: proxyFile, err })).catch((err: unknown) => {
            throw new ToolError(`PROXY_LIST_FILE ${proxyFile} cannot be read: ${(err as Error).message}`, 'permanent');
          })
        : Promise.resolve(null),
    ]);
    if (proxies && proxies.stats.rejectedLines.length > 0) {
      log.warn('proxy list lines that are not addresses or CIDRs were skipped', { file: proxyFile, lines: proxies.stats.rejectedLines });
    }
    log.info('IP geolocation data loaded', {
      ms: Math.round(performance.now() - started),
      asnIndex: asn.origin,
      asnRanges: asn.index.rangeCount,
      cityDb: citySource.name,
      proxyEntries: proxies?.stats.entries ?? 0,
      rssMb: Math.round(process.memoryUsage().rss / 1e6),
    });
    return new IpGeolocator({ city, citySource, asn: asn.index, proxies });
  },
});
