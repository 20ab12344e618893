#!/usr/bin/env python3
"""Generate src/cdn/poptable.c: the POP/airport and country-centroid tables that
edge.c looks codes up in.

Inputs (not needed by the build, only to regenerate):
  DATA/iata-airports.csv       iata,latitude,longitude,iso_country,municipality
                               (OurAirports, public domain)
  DATA/country-centroids.csv   iso_country,latitude,longitude,name
                               (Google DSPL, BSD-3-Clause, plus seven
                               OurAirports-derived rows)
DATA defaults to ../shared/data next to the repository (the project's shared
folder); pass another folder as the first argument.  The output goes to
src/cdn/poptable.c, or to the second argument.

Rows of the POP table:
  * every airport of iata-airports.csv, because CloudFront and Fastly POP
    codes are "typically" the IATA code of a nearby airport;
  * every Cloudflare colo below (city named as Cloudflare names it), with
    coordinates from the airport row, else from FALLBACK;
  * metro and vendor codes that are not airports (METRO), placed on the main
    airport of that metro;
  * vendor flags on the codes each vendor is known to use (CDN.md).
Rows are sorted by code so that edge_pop_lookup can bsearch them.

Usage: python3 tests/data/gen_poptable.py [DATA [OUT]]
"""

import csv
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

# Cloudflare colos: code|city|country.  The union of three snapshots of the
# list built from Cloudflare's public status components and speed-test
# locations (github.com/Netrvin/cloudflare-colo-list, DC-Colos.csv and
# DC-Colos.json), plus FRU and JRG named in CDN.md 1.5.  Only the codes,
# city names and countries are taken: coordinates come from OurAirports.
CLOUDFLARE = """
AAE|Annaba|DZ ABJ|Abidjan|CI ABQ|Albuquerque|US ACC|Accra|GH ADB|Izmir|TR
ADD|Addis Ababa|ET ADL|Adelaide|AU AKL|Auckland|NZ AKX|Aktobe|KZ
ALA|Almaty|KZ ALG|Algiers|DZ AMD|Ahmedabad|IN AMM|Amman|JO AMS|Amsterdam|NL
ANC|Anchorage|US AQG|Anqing|CN ARI|Arica|CL ARN|Stockholm|SE
ARU|Aracatuba|BR ASK|Yamoussoukro|CI ASU|Asunción|PY ATH|Athens|GR
ATL|Atlanta|US AUS|Austin|US BAH|Manama|BH BAQ|Barranquilla|CO
BBI|Bhubaneswar|IN BCN|Barcelona|ES BEG|Belgrade|RS BEL|Belém|BR
BEY|Beirut|LB BGI|Bridgetown|BB BGR|Bangor|US BGW|Baghdad|IQ BHY|Beihai|CN
BKK|Bangkok|TH BLR|Bangalore|IN BNA|Nashville|US BNE|Brisbane|AU
BNU|Blumenau|BR BOD|Bordeaux|FR BOG|Bogotá|CO BOM|Mumbai|IN BOS|Boston|US
BRU|Brussels|BE BSB|Brasília|BR BSR|Basra|IQ BTS|Bratislava|SK
BUD|Budapest|HU BUF|Buffalo|US BWN|Bandar Seri Begawan|BN CAI|Cairo|EG
CAN|Guangzhou|CN CAW|Campos dos Goytacazes|BR CBR|Canberra|AU
CCP|Concepción|CL CCU|Kolkata|IN CDG|Paris|FR CEB|Cebu|PH CFC|Caçador|BR
CGB|Cuiabá|BR CGD|Changde|CN CGK|Jakarta|ID CGO|Zhengzhou|CN
CGP|Chittagong|BD CGQ|Changchun|CN CGY|Cagayan de Oro|PH CHC|Christchurch|NZ
CKG|Chongqing|CN CLE|Cleveland|US CLO|Cali|CO CLT|Charlotte|US
CMB|Colombo|LK CMH|Columbus|US CMN|Casablanca|MA CNF|Belo Horizonte|BR
CNN|Kannur|IN CNX|Chiang Mai|TH COK|Kochi|IN COR|Córdoba|AR
CPH|Copenhagen|DK CPT|Cape Town|ZA CRK|Tarlac City|PH CSX|Changsha|CN
CTU|Chengdu|CN CUR|Willemstad|CW CWB|Curitiba|BR CZX|Changzhou|CN
DAC|Dhaka|BD DAD|Da Nang|VN DAR|Dar es Salaam|TZ DEL|New Delhi|IN
DEN|Denver|US DFW|Dallas|US DKR|Dakar|SN DLC|Dalian|CN DME|Moscow|RU
DMM|Dammam|SA DOH|Doha|QA DPS|Denpasar|ID DTW|Detroit|US DUB|Dublin|IE
DUR|Durban|ZA DUS|Düsseldorf|DE DXB|Dubai|AE EBB|Kampala|UG EBL|Erbil|IQ
EDI|Edinburgh|GB EVN|Yerevan|AM EWR|Newark|US EZE|Buenos Aires|AR
FCO|Rome|IT FIH|Kinshasa|CD FLN|Florianópolis|BR FOC|Fuzhou|CN
FOR|Fortaleza|BR FRA|Frankfurt|DE FRU|Bishkek|KG FSD|Sioux Falls|US
FUK|Fukuoka|JP FUO|Foshan|CN GBE|Gaborone|BW GDL|Guadalajara|MX
GEO|Georgetown|GY GIG|Rio de Janeiro|BR GND|St. George's|GD
GOT|Gothenburg|SE GRU|São Paulo|BR GUA|Guatemala City|GT GUM|Hagatna|GU
GVA|Geneva|CH GYD|Baku|AZ GYE|Guayaquil|EC GYN|Goiânia|BR HAK|Chengmai|CN
HAM|Hamburg|DE HAN|Hanoi|VN HBA|Hobart|AU HEL|Helsinki|FI HFA|Haifa|IL
HGH|Shaoxing|CN HKG|Hong Kong|HK HNL|Honolulu|US HRE|Harare|ZW
HYD|Hyderabad|IN HYN|Taizhou|CN IAD|Ashburn|US IAH|Houston|US ICN|Seoul|KR
IND|Indianapolis|US ISB|Islamabad|PK IST|Istanbul|TR ISU|Sulaymaniyah|IQ
ITJ|Itajaí|BR IXC|Chandigarh|IN JAX|Jacksonville|US JDO|Juazeiro do Norte|BR
JED|Jeddah|SA JHB|Johor Bahru|MY JIB|Djibouti|DJ JNB|Johannesburg|ZA
JOG|Yogyakarta|ID JOI|Joinville|BR JRG|Sambalpur|IN JSR|Jashore|BD
JXG|Jiaxing|CN KBP|Kyiv|UA KCH|Kuching|MY KEF|Reykjavík|IS KGL|Kigali|RW
KHH|Kaohsiung City|TW KHI|Karachi|PK KHN|Nanchang|CN KHV|Khabarovsk|RU
KIN|Kingston|JM KIV|Chișinău|MD KIX|Osaka|JP KJA|Krasnoyarsk|RU KLD|Tver|RU
KMG|Kunming|CN KNU|Kanpur|IN KTM|Kathmandu|NP KUL|Kuala Lumpur|MY
KWE|Guiyang|CN KWI|Kuwait City|KW LAD|Luanda|AO LAS|Las Vegas|US
LAX|Los Angeles|US LCA|Nicosia|CY LED|Saint Petersburg|RU LHE|Lahore|PK
LHR|London|GB LHW|Lanzhou|CN LIM|Lima|PE LIS|Lisbon|PT LLK|Astara|AZ
LOS|Lagos|NG LPB|La Paz|BO LUN|Lusaka|ZM LUX|Luxembourg City|LU
LYA|Luoyang|CN LYS|Lyon|FR MAA|Chennai|IN MAD|Madrid|ES MAN|Manchester|GB
MAO|Manaus|BR MBA|Mombasa|KE MCI|Kansas City|US MCT|Muscat|OM
MDE|Medellín|CO MDL|Mandalay|MM MEL|Melbourne|AU MEM|Memphis|US
MEX|Mexico City|MX MFE|McAllen|US MFM|Macau|MO MGM|Montgomery|US
MIA|Miami|US MLE|Malé|MV MNL|Manila|PH MPM|Maputo|MZ MRS|Marseille|FR
MRU|Port Louis|MU MSP|Minneapolis|US MSQ|Minsk|BY MUC|Munich|DE MXP|Milan|IT
NAG|Nagpur|IN NBO|Nairobi|KE NJF|Najaf|IQ NNG|Nanning|CN NOU|Nouméa|NC
NQN|Neuquén|AR NQZ|Astana|KZ NRT|Tokyo|JP NVT|Timbó|BR OKA|Naha|JP
OKC|Oklahoma City|US OMA|Omaha|US ORD|Chicago|US ORF|Norfolk|US ORK|Cork|IE
ORN|Oran|DZ OSL|Oslo|NO OTP|Bucharest|RO OUA|Ouagadougou|BF
PAP|Port-au-Prince|HT PAT|Patna|IN PBH|Thimphu|BT PBM|Paramaribo|SR
PDX|Portland|US PER|Perth|AU PHL|Philadelphia|US PHX|Phoenix|US
PIT|Pittsburgh|US PKX|Langfang|CN PMO|Palermo|IT PMW|Palmas|BR
PNH|Phnom Penh|KH POA|Porto Alegre|BR POS|Port of Spain|TT PPT|Tahiti|PF
PRG|Prague|CZ PTY|Panama City|PA QRO|Querétaro|MX QWJ|Americana|BR
RAO|Ribeirão Preto|BR RDU|Durham|US REC|Recife|BR RGN|Yangon|MM
RIC|Richmond|US RIX|Riga|LV ROB|Monrovia|LR RUH|Riyadh|SA RUN|Saint-Denis|RE
SAN|San Diego|US SAP|San Pedro Sula|HN SAT|San Antonio|US SCL|Santiago|CL
SDQ|Santo Domingo|DO SEA|Seattle|US SFO|San Francisco|US
SGN|Ho Chi Minh City|VN SHA|Shanghai|CN SIN|Singapore|SG SJC|San Jose|US
SJK|São José dos Campos|BR SJO|San José|CR SJP|São José do Rio Preto|BR
SJU|San Juan|PR SJW|Shijiazhuang|CN SKG|Thessaloniki|GR SKP|Skopje|MK
SLC|Salt Lake City|US SMF|Sacramento|US SOD|Sorocaba|BR SOF|Sofia|BG
SSA|Salvador|BR STI|Santiago de los Caballeros|DO STL|St. Louis|US
STR|Stuttgart|DE SUV|Suva|FJ SVX|Yekaterinburg|RU SYD|Sydney|AU
SZX|Shenzhen|CN TAO|Qingdao|CN TAS|Tashkent|UZ TBS|Tbilisi|GE TEN|Tongren|CN
TGU|Tegucigalpa|HN TIA|Tirana|AL TLH|Tallahassee|US TLL|Tallinn|EE
TLV|Tel Aviv|IL TNA|Zibo|CN TNR|Antananarivo|MG TPA|Tampa|US TPE|Taipei|TW
TSN|Tianjin|CN TUN|Tunis|TN TXL|Berlin|DE TYN|Yangquan|CN UDI|Uberlândia|BR
UIO|Quito|EC ULN|Ulaanbaatar|MN URT|Surat Thani|TH VCP|Campinas|BR
VIE|Vienna|AT VIX|Vitória|BR VNO|Vilnius|LT VTE|Vientiane|LA WAW|Warsaw|PL
WDH|Windhoek|NA WHU|Wuhu|CN WUH|Xiaogan|CN WUX|Wuxi|CN XAP|Chapecó|BR
XFN|Xiangyang|CN XIY|Baoji|CN XNH|Nasiriyah|IQ XNN|Xining|CN YHZ|Halifax|CA
YOW|Ottawa|CA YTY|Yangzhou|CN YUL|Montréal|CA YVR|Vancouver|CA
YWG|Winnipeg|CA YXE|Saskatoon|CA YYC|Calgary|CA YYZ|Toronto|CA
ZAG|Zagreb|HR ZDM|Ramallah|PS ZGN|Zhongshan|CN ZRH|Zürich|CH
"""

# Colos whose code is not a large or medium airport in OurAirports.
# Coordinates as CDN.md 1.5 gives them (OurAirports rows of closed, small or
# re-coded airports), else from the Netrvin list; the ones marked
# approximate are city centres.
FALLBACK = {
    "TXL": (52.5577, 13.2919),    # OurAirports DE-0876 (closed)
    "KIV": (46.9277, 28.9317),    # OurAirports LUKK, now RMO
    "FRU": (43.0613, 74.4776),    # OurAirports UAFM, now BSZ
    "LLK": (38.7579, 48.8070),    # OurAirports UBBL
    "ZDM": (31.9112, 35.2076),    # OurAirports ZDM (heliport)
    "QWJ": (-22.7559, -47.2694),  # OurAirports SDAI
    "CFC": (-26.7874, -50.9399),  # OurAirports SBCD
    "JDO": (-7.2193, -39.2691),   # OurAirports SBJU
    "SOD": (-23.4780, -47.4900),  # OurAirports SDCO
    "JRG": (21.9135, 84.0504),    # OurAirports VEJH
    "BNU": (-26.8925, -49.0770),  # Blumenau, Netrvin list (city)
    "ITJ": (-27.6117, -48.6728),  # Itajaí, Netrvin list
    "JXG": (30.75, 120.76),       # Jiaxing, approximate
    "WHU": (31.33, 118.38),       # Wuhu, approximate
    "ZGN": (22.52, 113.39),       # Zhongshan, approximate
}

# Codes vendors use that are not airports: IATA metropolitan-area codes
# (Fastly WDC per CDN.md 3; Microsoft's X-MSEdge-Ref uses PAR, LON, ...).
# Each is placed on the metro's main airport from iata-airports.csv.
METRO = {
    "WDC": ("IAD", "Washington"),
    "NYC": ("JFK", "New York"),
    "CHI": ("ORD", "Chicago"),
    "LON": ("LHR", "London"),
    "PAR": ("CDG", "Paris"),
    "TYO": ("NRT", "Tokyo"),
    "OSA": ("KIX", "Osaka"),
    "SEL": ("ICN", "Seoul"),
    "BJS": ("PEK", "Beijing"),
    "SAO": ("GRU", "São Paulo"),
    "RIO": ("GIG", "Rio de Janeiro"),
    "BUE": ("EZE", "Buenos Aires"),
    "MIL": ("MXP", "Milan"),
    "ROM": ("FCO", "Rome"),
    "STO": ("ARN", "Stockholm"),
    "MOW": ("SVO", "Moscow"),
    "YTO": ("YYZ", "Toronto"),
    "YMQ": ("YUL", "Montréal"),
    "JKT": ("CGK", "Jakarta"),
}

# Codes each vendor is known to use (CDN.md sections 2, 3, 5); only the
# Cloudflare set is meant to be complete.
CLOUDFRONT = "PHX SEA LHR NRT LAX CMH FRA PRG ICN"
FASTLY = "JFK NRT FRA IAD SJC HKG WDC BWI DCA"
VERCEL = ("ARN BOM CDG CLE CPT DUB FRA GRU HKG HND IAD ICN KIX LHR PDX SFO "
          "SIN SYD YUL")
BUNNY = "PHX"

FLAG_CLOUDFLARE = 1
FLAG_CLOUDFRONT = 2
FLAG_FASTLY = 4
FLAG_VERCEL = 8
FLAG_BUNNY = 16
FLAG_METRO = 32


def clean_city(s):
    """'Luoyang (Laocheng)' -> 'Luoyang'; 'Luton, Luton' -> 'Luton'."""
    s = s.strip()
    if " (" in s:
        s = s[: s.index(" (")]
    parts = [p.strip() for p in s.split(",")]
    if len(parts) == 2 and parts[0] == parts[1]:
        s = parts[0]
    return s


def edge_h_size(name):
    """The value of #define name in src/cdn/edge.h."""
    with open(os.path.join(REPO, "src", "cdn", "edge.h")) as f:
        m = re.search(r"^#define %s\s+(\d+)" % name, f.read(), re.M)
    if not m:
        raise SystemExit("gen_poptable: no %s in src/cdn/edge.h" % name)
    return int(m.group(1))


def c_name(s, size, what):
    """A name for a char[size] field of edge.h (EDGE_CITY_SIZE,
    EDGE_COUNTRY_SIZE): it must fit with its NUL."""
    if len(s.encode("utf-8")) >= size:
        raise SystemExit("gen_poptable: %s %r is %d bytes, over edge.h's %d"
                         % (what, s, len(s.encode("utf-8")), size - 1))
    return c_str(s)


def c_str(s):
    out = []
    for ch in s:
        if ch in ('"', "\\"):
            out.append("\\" + ch)
        elif ord(ch) < 0x20:
            out.append("\\%03o" % ord(ch))
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def c_double(x):
    r = "%.6f" % x
    r = r.rstrip("0")
    if r.endswith("."):
        r += "0"
    return r


def main():
    data = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(REPO), "shared", "data")
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
        REPO, "src", "cdn", "poptable.c")

    rows = {}
    with open(os.path.join(data, "iata-airports.csv"), newline="",
              encoding="utf-8") as f:
        for r in csv.DictReader(f):
            rows[r["iata"]] = {
                "cc": r["iso_country"],
                "city": clean_city(r["municipality"]),
                "lat": float(r["latitude"]),
                "lon": float(r["longitude"]),
                "flags": 0,
            }

    colos = parse_colos(CLOUDFLARE)
    if len(colos) * 2 != CLOUDFLARE.count("|"):
        sys.exit("gen_poptable: malformed CLOUDFLARE list")
    missing = []
    for code, city, cc in colos:
        if code in rows:
            rows[code]["city"] = city
        elif code in FALLBACK:
            lat, lon = FALLBACK[code]
            rows[code] = {"cc": cc, "city": city, "lat": lat, "lon": lon,
                          "flags": 0}
        else:
            missing.append(code)
            continue
        rows[code]["flags"] |= FLAG_CLOUDFLARE
    if missing:
        sys.exit("gen_poptable: no coordinates for colos: " +
                 " ".join(missing))

    for code, (airport, city) in METRO.items():
        if code in rows:
            sys.exit("gen_poptable: metro code %s is an airport" % code)
        a = rows[airport]
        rows[code] = {"cc": a["cc"], "city": city, "lat": a["lat"],
                      "lon": a["lon"], "flags": FLAG_METRO}

    for codes, flag in ((CLOUDFRONT, FLAG_CLOUDFRONT), (FASTLY, FLAG_FASTLY),
                        (VERCEL, FLAG_VERCEL), (BUNNY, FLAG_BUNNY)):
        for code in codes.split():
            if code not in rows:
                sys.exit("gen_poptable: vendor code %s unknown" % code)
            rows[code]["flags"] |= flag

    cents = []
    with open(os.path.join(data, "country-centroids.csv"), newline="",
              encoding="utf-8") as f:
        for r in csv.DictReader(f):
            cents.append((r["iso_country"], float(r["latitude"]),
                          float(r["longitude"]), r["name"]))
    cents.sort()

    lines = []
    w = lines.append
    w("/*")
    w(" * poptable.c: generated by tests/data/gen_poptable.py, do not edit.")
    w(" *")
    w(" * The tables edge.c looks POP codes and countries up in: %d codes"
      % len(rows))
    w(" * (every large or medium airport with an IATA code, %d Cloudflare"
      % len(colos))
    w(" * colos, %d metro codes) and %d country centroids, both sorted by code."
      % (len(METRO), len(cents)))
    w(" *")
    w(" * Airports: OurAirports (public domain).  Cloudflare colo codes and")
    w(" * names: Netrvin/cloudflare-colo-list (MIT).  Centroids: Google DSPL")
    w(" * countries.csv (BSD-3-Clause, Copyright 2018 Google Inc.) and")
    w(" * OurAirports.  See COPYING, \"Third-party data\".")
    w(" */")
    w('#include "edge.h"')
    w("")
    city_size = edge_h_size("EDGE_CITY_SIZE")
    country_size = edge_h_size("EDGE_COUNTRY_SIZE")
    w("const struct edge_pop edge_pops[] = {")
    for code in sorted(rows):
        r = rows[code]
        w("    {%s, %s, %s, %s, %s, %s}," % (
            c_str(code), c_str(r["cc"]), c_flags(r["flags"]),
            c_name(r["city"], city_size, "city"), c_double(r["lat"]),
            c_double(r["lon"])))
    w("};")
    w("const size_t edge_n_pops = sizeof(edge_pops) / sizeof(edge_pops[0]);")
    w("")
    w("const struct edge_country edge_countries[] = {")
    for cc, lat, lon, name in cents:
        w("    {%s, %s, %s, %s}," % (
            c_str(cc), c_name(name, country_size, "country"), c_double(lat),
            c_double(lon)))
    w("};")
    w("const size_t edge_n_countries =")
    w("    sizeof(edge_countries) / sizeof(edge_countries[0]);")
    text = "\n".join(lines) + "\n"
    # Format with the project's .clang-format, as if the file were in src/,
    # so that a regenerated table diffs cleanly.
    if shutil.which("clang-format"):
        text = subprocess.run(
            ["clang-format",
             "--assume-filename=" + os.path.join(REPO, "src", "cdn", "poptable.c")],
            input=text, capture_output=True, text=True, check=True).stdout
    with open(out, "w", encoding="utf-8") as f:
        f.write(text)
    print("gen_poptable: %d POP rows, %d Cloudflare colos, %d countries -> %s"
          % (len(rows), len(colos), len(cents), out))


def c_flags(flags):
    names = [(FLAG_CLOUDFLARE, "EDGE_POP_CLOUDFLARE"),
             (FLAG_CLOUDFRONT, "EDGE_POP_CLOUDFRONT"),
             (FLAG_FASTLY, "EDGE_POP_FASTLY"),
             (FLAG_VERCEL, "EDGE_POP_VERCEL"),
             (FLAG_BUNNY, "EDGE_POP_BUNNY"),
             (FLAG_METRO, "EDGE_POP_METRO")]
    got = [n for bit, n in names if flags & bit]
    return " | ".join(got) if got else "0"


def parse_colos(text):
    """Entries are CODE|City|CC separated by whitespace; a city may contain
    spaces, so split on the CODE| anchors instead of on blanks."""
    out = []
    for m in re.finditer(r"([A-Z]{3})\|([^|]+?)\|([A-Z]{2})(?=\s|$)", text):
        out.append((m.group(1), " ".join(m.group(2).split()), m.group(3)))
    return out


if __name__ == "__main__":
    main()
